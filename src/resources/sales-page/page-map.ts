import { html, type Markup } from './html.ts';

interface Pin {
  name: string;
  lat: number;
  lon: number;
}

type Box = [west: number, south: number, east: number, north: number];

const WIDTH = 480;
/** Height over width, kept within these so that a long thin region still reads as a map. */
const FLATTEST = 0.5;
const TALLEST = 1;
/** Degrees of room around pins when the guide has no region: about a kilometre at the least. */
const MIN_SPAN = 0.02;

/**
 * Longitudes made continuous across the antimeridian: a region whose west exceeds its east (as
 * bboxSchema allows) or pins spread over more than half the globe are read with 360 added to the
 * western hemisphere's longitudes, so the map spans the short way round.
 */
function unwrapper(pins: readonly Pin[], region: Box | null): (lon: number) => number {
  const lons = pins.map((p) => p.lon);
  const crosses = region ? region[0] > region[2] : Math.max(...lons) - Math.min(...lons) > 180;
  if (!crosses) return (lon) => lon;
  const from = region ? region[0] : 0;
  return (lon) => (lon < from ? lon + 360 : lon);
}

/** The region's box grown to hold every pin, or the pins' own box, with a margin. */
function boxOf(pins: readonly Pin[], region: Box | null): Box {
  const lons = pins.map((p) => p.lon);
  const lats = pins.map((p) => p.lat);
  let [west, south, east, north] = region ?? [
    Math.min(...lons),
    Math.min(...lats),
    Math.max(...lons),
    Math.max(...lats),
  ];
  west = Math.min(west, ...lons);
  east = Math.max(east, ...lons);
  south = Math.min(south, ...lats);
  north = Math.max(north, ...lats);
  // A margin so that no pin sits on the edge, and a minimum span for a single pin.
  const padLon = Math.max((east - west) * 0.08, MIN_SPAN / 2);
  const padLat = Math.max((north - south) * 0.08, MIN_SPAN / 2);
  return [west - padLon, Math.max(-89.9, south - padLat), east + padLon, Math.min(89.9, north + padLat)];
}

/**
 * The sample spots on a small map drawn here, with no tile server (the page asks nothing of any
 * other host): an equirectangular projection of the guide's region, scaled by the cosine of its
 * middle latitude so distances read true east-west and north-south. Numbered pins match the list
 * below the map. Nothing when no sample spot has a pin.
 */
export function spotMap(
  spots: readonly { name: string; lat: number | null; lon: number | null }[],
  region: Box | null,
) {
  const pins = spots.flatMap((s, i) =>
    s.lat === null || s.lon === null ? [] : [{ name: s.name, lat: s.lat, lon: s.lon, n: i + 1 }],
  );
  if (pins.length === 0) return html``;
  const unwrap = unwrapper(pins, region);
  const flat = pins.map((p) => ({ ...p, lon: unwrap(p.lon) }));
  const flatRegion: Box | null = region && [region[0], region[1], unwrap(region[2]), region[3]];
  let [west, south, east, north] = boxOf(flat, flatRegion);
  const cos = Math.cos((((south + north) / 2) * Math.PI) / 180);
  // Grow the shorter side so the shape stays within bounds without stretching the projection.
  let across = (east - west) * cos;
  let down = north - south;
  if (down < across * FLATTEST) {
    const grow = (across * FLATTEST - down) / 2;
    south -= grow;
    north += grow;
    down = across * FLATTEST;
  } else if (down > across * TALLEST) {
    const grow = (down / TALLEST - across) / cos / 2;
    west -= grow;
    east += grow;
    across = down / TALLEST;
  }
  const height = Math.round((WIDTH * down) / across);
  const x = (lon: number) => ((lon - west) / (east - west)) * WIDTH;
  const y = (lat: number) => ((north - lat) / (north - south)) * height;
  const marks: Markup[] = flat.map((p) => {
    const px = x(p.lon);
    const py = y(p.lat);
    const right = px > WIDTH * 0.65;
    return html`<g class="pin"><circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="12"></circle><text class="n" x="${px.toFixed(1)}" y="${(py + 4).toFixed(1)}" text-anchor="middle">${p.n}</text><text class="label" x="${(right ? px - 15 : px + 15).toFixed(1)}" y="${(py + 4).toFixed(1)}" text-anchor="${right ? 'end' : 'start'}">${p.name}</text></g>`;
  });
  return html`<figure class="map"><svg viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="Map of the sample spots"><rect class="land" width="${WIDTH}" height="${height}"></rect>${grid(WIDTH, height)}${marks}</svg><figcaption>Sample spots on a map of the guide's area (north is up).</figcaption></figure>`;
}

/** Faint lines every eighth of the map, so it reads as a map rather than a blank box. */
function grid(width: number, height: number): Markup {
  const lines: Markup[] = [];
  for (let i = 1; i < 8; i++) {
    lines.push(html`<line x1="${(width * i) / 8}" y1="0" x2="${(width * i) / 8}" y2="${height}"></line>`);
    lines.push(html`<line x1="0" y1="${(height * i) / 8}" x2="${width}" y2="${(height * i) / 8}"></line>`);
  }
  return html`<g class="grid">${lines}</g>`;
}
