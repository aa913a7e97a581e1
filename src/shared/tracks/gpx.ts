import type { XmlElement } from '@rgrove/parse-xml';
import { refuse } from '../../core/errors.ts';
import { childElements, localName, readXml, xmlDecimal } from '../xml.ts';
import { INPUT_POINTS_MAX, type Position, pointProblem } from './track.schema.ts';
import { haversineMeters } from './track-figures.ts';

/** The points of a GPX document as one line, and what the caller should know about how it was read. */
export interface GpxLine {
  points: Position[];
  warnings: string[];
}

/** A point as read, before elevations are settled. */
export interface RawPoint {
  lon: number;
  lat: number;
  ele: number | undefined;
}

/** Reads one more point of a file's lines, refusing the file past INPUT_POINTS_MAX points in all. */
export type PointReader = (element: XmlElement, where: string) => RawPoint;

/**
 * The <gpx> root of a text, or a refusal at `path`: malformed XML (see readXml for entities and
 * depth) or another root.
 */
export function readGpxRoot(text: string, path: string): XmlElement {
  const root = readXml(text, path);
  if (root === null || localName(root) !== 'gpx') {
    throw refuse(path, `is not a GPX document: its root element is <${root?.name ?? ''}>, not <gpx>.`);
  }
  return root;
}

/** A PointReader for one file: the cap counts every line's points, as one track or several. */
export function gpxPointReader(path: string): PointReader {
  let count = 0;
  return (element, where) => {
    if (count >= INPUT_POINTS_MAX) {
      throw refuse(
        path,
        `has more than ${INPUT_POINTS_MAX.toLocaleString('en')} points; split the hike or thin the file.`,
      );
    }
    count += 1;
    return readGpxPoint(element, where, path);
  };
}

/** The points of one <trk>, its segments joined in order; `t` is its index among the file's tracks. */
export function gpxTrackPoints(trk: XmlElement, t: number, read: PointReader): RawPoint[] {
  const points: RawPoint[] = [];
  for (const [s, seg] of childElements(trk, 'trkseg').entries()) {
    for (const [p, pt] of childElements(seg, 'trkpt').entries()) {
      points.push(read(pt, `track ${t + 1}, segment ${s + 1}, point ${p + 1}`));
    }
  }
  return points;
}

/** The points of one <rte>; `r` is its index among the file's routes. */
export function gpxRoutePoints(rte: XmlElement, r: number, read: PointReader): RawPoint[] {
  return childElements(rte, 'rtept').map((pt, p) => read(pt, `route ${r + 1}, point ${p + 1}`));
}

/**
 * The line of a GPX document in document order: the points of every trk/trkseg, or, when there
 * is no track point at all, of every rte. Waypoints (wpt) are places, not the line: ignored.
 */
function readPoints(gpx: XmlElement, path: string): { points: RawPoint[]; warnings: string[] } {
  const read = gpxPointReader(path);
  const warnings: string[] = [];
  const tracks = childElements(gpx, 'trk').map((trk, t) => gpxTrackPoints(trk, t, read));
  const tracksWithPoints = tracks.filter((points) => points.length > 0).length;
  if (tracksWithPoints > 1) {
    warnings.push(
      `The GPX has ${tracksWithPoints} tracks; they were joined in file order into one line. If they are ` +
        'separate hikes, send each as its own hike.',
    );
  }
  if (tracksWithPoints > 0) return { points: tracks.flat(), warnings };
  const routes = childElements(gpx, 'rte').map((rte, r) => gpxRoutePoints(rte, r, read));
  const points = routes.flat();
  if (routes.length > 1 && points.length > 0) {
    warnings.push(`The GPX has ${routes.length} routes and no track; the routes were joined in file order.`);
  }
  return { points, warnings };
}

/**
 * One point (trkpt, rtept or wpt): lat and lon attributes and an optional <ele>, each a decimal
 * number in range, or a refusal at `path` saying where in the file (`where`) and what is wrong.
 */
export function readGpxPoint(element: XmlElement, where: string, path: string): RawPoint {
  const number = (raw: string | undefined, what: string): number => {
    const value = xmlDecimal(raw);
    if (value === undefined) {
      throw refuse(
        path,
        `${where}: ${what} ${raw === undefined ? 'is missing' : `${JSON.stringify(raw)} is not a number`}.`,
      );
    }
    return value;
  };
  const lat = number(element.attributes.lat, 'the lat attribute');
  const lon = number(element.attributes.lon, 'the lon attribute');
  const eleElement = childElements(element, 'ele')[0];
  const ele = eleElement === undefined ? undefined : number(eleElement.text, '<ele>');
  const problem = pointProblem(ele === undefined ? [lon, lat] : [lon, lat, ele], 'attributes');
  if (problem !== undefined) throw refuse(path, `${where}: ${problem}.`);
  return { lon, lat, ele };
}

/**
 * Points without <ele> among points with it (a fix lost for a while) get an elevation
 * interpolated along the ground between their neighbours, or the nearest one's at either end, so
 * the line keeps one arity and its profile has no holes.
 */
export function settleElevations(raw: readonly RawPoint[], warnings: string[]): Position[] {
  const missing = raw.filter((p) => p.ele === undefined).length;
  if (missing === raw.length) return raw.map((p) => [p.lon, p.lat]);
  if (missing > 0) {
    warnings.push(
      `${missing} of ${raw.length} GPX points had no <ele>; their elevations were interpolated from the ` +
        'points around them.',
    );
  }
  const along = [0];
  for (let i = 1; i < raw.length; i++) {
    along.push(along[i - 1]! + haversineMeters([raw[i - 1]!.lon, raw[i - 1]!.lat], [raw[i]!.lon, raw[i]!.lat]));
  }
  const nextKnown: (number | undefined)[] = [];
  for (let i = raw.length - 1, k: number | undefined; i >= 0; i--) {
    if (raw[i]!.ele !== undefined) k = i;
    nextKnown[i] = k;
  }
  let before: number | undefined;
  return raw.map((p, i) => {
    if (p.ele !== undefined) {
      before = i;
      return [p.lon, p.lat, p.ele];
    }
    const after = nextKnown[i];
    const from = raw[before ?? after!]!.ele!;
    const to = raw[after ?? before!]!.ele!;
    const span = before === undefined || after === undefined ? 0 : along[after]! - along[before]!;
    const share = span === 0 ? 0 : (along[i]! - along[before!]!) / span;
    return [p.lon, p.lat, Math.round((from + (to - from) * share) * 10) / 10];
  });
}

/**
 * Reads a GPX document's track into one line of [lon, lat] or [lon, lat, ele] points. Anything
 * that is not a GPX line (malformed XML, another root, no points, a point out of range) is
 * refused with invalid_request at `path`, saying where in the file the problem is.
 */
export function parseGpx(text: string, path: string): GpxLine {
  const { points, warnings } = readPoints(readGpxRoot(text, path), path);
  if (points.length < 2) {
    throw refuse(
      path,
      points.length === 0
        ? 'has no track points (trk/trkseg/trkpt) and no route points (rte/rtept).'
        : 'has only one point; a line needs at least two.',
    );
  }
  return { points: settleElevations(points, warnings), warnings };
}
