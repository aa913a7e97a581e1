import { type GeoStream, geoClipRectangle } from 'd3-geo';
import simplify from 'simplify-js';
import type { MapFrame } from './map-frame.ts';
import { type LandRing, landPolygons, RUN } from './map-land-data.ts';

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
  const land = landPolygons();
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
