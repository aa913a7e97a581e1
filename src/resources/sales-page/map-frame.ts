/** [west, south, east, north] in degrees; west > east for a region across the antimeridian. */
export type Region = [west: number, south: number, east: number, north: number];

export interface LonLat {
  lat: number;
  lon: number;
}

/**
 * What a map shows and where a place lands on it: an equirectangular projection of the box,
 * scaled by the cosine of its middle latitude so distances read true east-west and north-south.
 * Longitudes are unwrapped (east may pass 180) so a box across the antimeridian is continuous.
 */
export interface MapFrame {
  width: number;
  height: number;
  west: number;
  south: number;
  east: number;
  north: number;
  /** A longitude read the way this frame spans the globe (360 added where the box crosses 180°). */
  unwrap(lon: number): number;
  /** x of an unwrapped longitude. */
  x(lon: number): number;
  y(lat: number): number;
  /** Kilometres across the frame at its middle latitude. */
  widthKm: number;
}

/** Height over width, kept within these so that a long thin region still reads as a map. */
const FLATTEST = 0.5;
const TALLEST = 1;
/** Degrees of room around pins when the map has no region: about a kilometre at the least. */
const MIN_SPAN = 0.02;
const KM_PER_DEGREE = 111.32;

/**
 * Longitudes made continuous across the antimeridian: a region whose west exceeds its east (as
 * bboxSchema allows) or pins spread over more than half the globe are read with 360 added to the
 * western hemisphere's longitudes, so the map spans the short way round.
 */
function unwrapper(points: readonly LonLat[], region: Region | null): (lon: number) => number {
  const lons = points.map((p) => p.lon);
  const crosses = region ? region[0] > region[2] : Math.max(...lons) - Math.min(...lons) > 180;
  if (!crosses) return (lon) => lon;
  const from = region ? region[0] : 0;
  return (lon) => (lon < from ? lon + 360 : lon);
}

/** The region's box grown to hold every point, or the points' own box, with a margin. */
function boxOf(points: readonly LonLat[], region: Region | null): Region {
  const lons = points.map((p) => p.lon);
  const lats = points.map((p) => p.lat);
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

/** The frame of a map `width` wide showing the region and every point. Needs a region or a point. */
export function frameOf(region: Region | null, points: readonly LonLat[], width: number): MapFrame {
  const unwrap = unwrapper(points, region);
  const flat = points.map((p) => ({ lat: p.lat, lon: unwrap(p.lon) }));
  const flatRegion: Region | null = region && [region[0], region[1], unwrap(region[2]), region[3]];
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
  const height = Math.round((width * down) / across);
  return {
    width,
    height,
    west,
    south,
    east,
    north,
    unwrap,
    x: (lon) => ((lon - west) / (east - west)) * width,
    y: (lat) => ((north - lat) / (north - south)) * height,
    widthKm: across * KM_PER_DEGREE,
  };
}
