import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { transform } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** Points of a ring per run whose box is kept: a run wholly outside a frame is passed over. */
export const RUN = 32;

/**
 * A ring as flat [lon, lat, lon, lat, …] (the closing point left out: a clip stream closes rings
 * itself), and [west, south, east, north] of each run of RUN points, its last point shared with
 * the next run.
 */
export interface LandRing {
  points: Float64Array;
  runs: Float64Array;
}

/** One polygon of land: its box in degrees and its rings. */
export interface LandPolygon {
  west: number;
  south: number;
  east: number;
  north: number;
  rings: LandRing[];
}

/**
 * A ring from its flat points (the closing point included), with each vertex on the antimeridian
 * put on the side its neighbours are on: the data writes some of them as -180 amid a coast at
 * 179.9 (Fiji, Chukotka), which drawn flat would be a line across the whole world.
 */
function landRing(ring: Float64Array): LandRing {
  const count = ring.length / 2 - 1;
  const points = new Float64Array(count * 2);
  let side = 1;
  for (let i = 0; i < count; i++) {
    if (Math.abs(ring[i * 2] as number) !== 180) {
      side = Math.sign(ring[i * 2] as number) || 1;
      break;
    }
  }
  for (let i = 0; i < count; i++) {
    const lon = ring[i * 2] as number;
    if (Math.abs(lon) === 180) points[i * 2] = 180 * side;
    else {
      points[i * 2] = lon;
      if (lon !== 0) side = Math.sign(lon);
    }
    points[i * 2 + 1] = ring[i * 2 + 1] as number;
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

/** A ring joined from its arcs (~i: arc i backwards), each arc after the first without its first point. */
function stitch(arcs: readonly Float64Array[], indices: readonly number[]): Float64Array {
  const ofIndex = (index: number) => arcs[index < 0 ? ~index : index] as Float64Array;
  const flat = new Float64Array(indices.reduce((sum, index, k) => sum + ofIndex(index).length - (k > 0 ? 2 : 0), 0));
  let at = 0;
  indices.forEach((index, k) => {
    const arc = ofIndex(index);
    const n = arc.length / 2;
    for (let i = k > 0 ? 1 : 0; i < n; i++) {
      const from = index < 0 ? n - 1 - i : i;
      flat[at++] = arc[from * 2] as number;
      flat[at++] = arc[from * 2 + 1] as number;
    }
  });
  return flat;
}

/**
 * Natural Earth's land at 1:10 million (world-atlas, public domain), the finest scale shipped
 * through npm at a size that fits in memory: 4,061 polygons, 409,000 points. The coarser files
 * lose islands such as Madeira. Read on first use (about 200 ms), kept as flat arrays (~10 MB).
 * Reading it raises the process's memory by 110-120 MB (the parsed JSON; V8 keeps the heap it
 * grew), which is why the arcs are joined into typed arrays here rather than through GeoJSON
 * (topojson-client's feature), which would add another 40 MB.
 */
let land: LandPolygon[] | undefined;

function loadLand(): LandPolygon[] {
  const file = createRequire(import.meta.url).resolve('world-atlas/land-10m.json');
  const topology = JSON.parse(readFileSync(file, 'utf8')) as Topology<{ land: GeometryCollection }>;
  const toLonLat = transform(topology.transform ?? null);
  const arcs = topology.arcs.map((arc) => {
    const flat = new Float64Array(arc.length * 2);
    // The transformer undoes quantization and deltas; its second argument is the position's index in the arc.
    arc.forEach((position, i) => {
      flat.set(toLonLat(position, i as unknown as boolean).slice(0, 2), i * 2);
    });
    return flat;
  });
  const polygons: LandPolygon[] = [];
  for (const geometry of topology.objects.land.geometries) {
    const parts = geometry.type === 'Polygon' ? [geometry.arcs] : geometry.type === 'MultiPolygon' ? geometry.arcs : [];
    for (const part of parts) {
      const rings = part.map((indices) => landRing(stitch(arcs, indices)));
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

/** Every polygon of land, read on first use. */
export function landPolygons(): readonly LandPolygon[] {
  land ??= loadLand();
  return land;
}
