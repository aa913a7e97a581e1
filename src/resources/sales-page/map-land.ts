import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type GeoStream, geoClipRectangle } from 'd3-geo';
import type { MultiPolygon, Polygon } from 'geojson';
import simplify from 'simplify-js';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { MapFrame } from './map-frame.ts';

/** Points of a ring per run whose box is kept: a run wholly outside a frame is passed over. */
const RUN = 32;

/**
 * A ring as flat [lon, lat, lon, lat, …] (the closing point left out: a clip stream closes rings
 * itself), and [west, south, east, north] of each run of RUN points, its last point shared with
 * the next run.
 */
interface LandRing {
  points: Float64Array;
  runs: Float64Array;
}

/** One polygon of land: its box in degrees and its rings. */
interface LandPolygon {
  west: number;
  south: number;
  east: number;
  north: number;
  rings: LandRing[];
}

/**
 * A ring's points, with each vertex on the antimeridian put on the side its neighbours are on:
 * the data writes some of them as -180 amid a coast at 179.9 (Fiji, Chukotka), which drawn flat
 * would be a line across the whole world.
 */
function landRing(ring: number[][]): LandRing {
  const count = ring.length - 1;
  const points = new Float64Array(count * 2);
  let side = Math.sign(ring.find((p) => Math.abs(p[0] ?? 0) !== 180)?.[0] ?? 1);
  for (let i = 0; i < count; i++) {
    const lon = ring[i]?.[0] ?? 0;
    if (Math.abs(lon) === 180) points[i * 2] = 180 * side;
    else {
      points[i * 2] = lon;
      if (lon !== 0) side = Math.sign(lon);
    }
    points[i * 2 + 1] = ring[i]?.[1] ?? 0;
  }
  const runs = new Float64Array(Math.ceil(Math.max(count - 1, 1) / RUN) * 4);
  for (let r = 0; r * RUN < Math.max(count - 1, 1); r++) {
    let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = r * RUN; i <= Math.min((r + 1) * RUN, count - 1); i++) {
      const lon = points[i * 2] as number;
      const lat = points[i * 2 + 1] as number;
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
    runs.set([west, south, east, north], r * 4);
  }
  return { points, runs };
}

/**
 * Natural Earth's land at 1:10 million (world-atlas, public domain), the finest scale shipped
 * through npm at a size that fits in memory: 4,061 polygons, 409,000 points. The coarser files
 * lose islands such as Madeira. Read on first use (about 150 ms), kept as flat arrays (~7 MB).
 */
let land: LandPolygon[] | undefined;

function loadLand(): LandPolygon[] {
  const file = createRequire(import.meta.url).resolve('world-atlas/land-10m.json');
  const topology = JSON.parse(readFileSync(file, 'utf8')) as Topology<{ land: GeometryCollection }>;
  const polygons: LandPolygon[] = [];
  for (const shape of feature(topology, topology.objects.land).features) {
    const geometry = shape.geometry as Polygon | MultiPolygon;
    const parts = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    for (const part of parts) {
      const rings = part.map(landRing);
      const boxes = rings.flatMap((ring) => [...ring.runs]);
      const side = (k: number) => boxes.filter((_, i) => i % 4 === k);
      polygons.push({
        west: Math.min(...side(0)),
        south: Math.min(...side(1)),
        east: Math.max(...side(2)),
        north: Math.max(...side(3)),
        rings,
      });
    }
  }
  return polygons;
}

/**
 * Detail below a unit (a pixel, give or take: the page shows its 480 units at 390 to 576 pixels)
 * is dropped from the outline, and so are islets under SPECK square units: a country's coast then
 * costs 5-30 KB rather than 10-50.
 */
const TOLERANCE = 1;
const SPECK = 2;

/** The area a ring encloses, by the shoelace formula. */
function ringArea(ring: readonly { x: number; y: number }[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j] as { x: number; y: number };
    const b = ring[i] as { x: number; y: number };
    sum += (a.x - b.x) * (a.y + b.y);
  }
  return Math.abs(sum) / 2;
}

/**
 * Collects the clipped outline as SVG path data in the frame's units: rings simplified and written
 * with one decimal, so a coast crossing the map costs bytes by what shows.
 */
function pathWriter() {
  const parts: string[] = [];
  let ring: { x: number; y: number }[] = [];
  const sink: GeoStream = {
    point(x, y) {
      ring.push({ x, y });
    },
    lineStart() {
      ring = [];
    },
    lineEnd() {
      const kept = simplify(ring, TOLERANCE, false);
      if (kept.length < 3 || ringArea(kept) < SPECK) return;
      parts.push(`M${kept.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join('L')}Z`);
    },
    polygonStart() {},
    polygonEnd() {},
    sphere() {},
  };
  return { sink, path: () => parts.join('') };
}

/** The clip box in degrees: the frame and one unit beyond it on every side. */
type Clip = { west: number; south: number; east: number; north: number };

/**
 * Streams a ring's points into the clip. A run lying wholly on the far side of one of the clip's
 * edges is sent as its two ends only: the straight line between them stays on that side, so what
 * the clip cuts out and the winding it reads are the same, and a continent costs its runs near
 * the frame rather than all its points.
 */
function streamRing(ring: LandRing, shift: number, clip: Clip, frame: MapFrame, out: GeoStream): void {
  const { points, runs } = ring;
  const count = points.length / 2;
  const send = (i: number) =>
    out.point(frame.x((points[i * 2] as number) + shift), frame.y(points[i * 2 + 1] as number));
  out.lineStart();
  for (let r = 0; r * 4 < runs.length; r++) {
    const first = r * RUN;
    const last = Math.min(first + RUN, count - 1);
    const outside =
      (runs[r * 4 + 2] as number) + shift < clip.west ||
      (runs[r * 4] as number) + shift > clip.east ||
      (runs[r * 4 + 3] as number) < clip.south ||
      (runs[r * 4 + 1] as number) > clip.north;
    if (outside) send(first);
    else for (let i = first; i < last; i++) send(i);
  }
  send(count - 1);
  out.lineEnd();
}

/**
 * The land inside the frame as SVG path data (fill it; the sea is what is left), empty when the
 * frame shows only sea. Only polygons whose box meets the frame are streamed, and each is clipped
 * to the frame (one unit beyond it, so no coast runs along the edge), which keeps both the time
 * and the path small. Polygons are tried at their own longitudes and 360° either side, so a frame
 * across the antimeridian gets the land on both sides.
 */
export function landPath(frame: MapFrame): string {
  land ??= loadLand();
  const writer = pathWriter();
  const clipped = geoClipRectangle(-1, -1, frame.width + 1, frame.height + 1)(writer.sink);
  const unitLon = (frame.east - frame.west) / frame.width;
  const unitLat = (frame.north - frame.south) / frame.height;
  const clip = {
    west: frame.west - unitLon,
    east: frame.east + unitLon,
    south: frame.south - unitLat,
    north: frame.north + unitLat,
  };
  for (const shift of [-360, 0, 360]) {
    for (const polygon of land) {
      if (polygon.east + shift < clip.west || polygon.west + shift > clip.east) continue;
      if (polygon.north < clip.south || polygon.south > clip.north) continue;
      clipped.polygonStart();
      for (const ring of polygon.rings) streamRing(ring, shift, clip, frame, clipped);
      clipped.polygonEnd();
    }
  }
  return writer.path();
}
