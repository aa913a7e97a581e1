import { parseXml, type XmlDocument, type XmlElement, XmlError } from '@rgrove/parse-xml';
import { refuse } from '../../core/errors.ts';
import { INPUT_POINTS_MAX, type Position, pointProblem } from './track.schema.ts';
import { haversineMeters } from './track-figures.ts';

/** The points of a GPX document as one line, and what the caller should know about how it was read. */
export interface GpxLine {
  points: Position[];
  warnings: string[];
}

/** A point as read, before elevations are settled. */
interface RawPoint {
  lon: number;
  lat: number;
  ele: number | undefined;
}

// A decimal number as GPX writes it (xsd:decimal, with an exponent tolerated); `Number()` alone
// would also take "", "0x1F" and "Infinity".
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** An element's local name: GPX is namespaced, and some writers use a prefix (`gpx:trkpt`). */
function localName(element: XmlElement): string {
  return element.name.slice(element.name.indexOf(':') + 1);
}

function childElements(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => c.type === 'element' && localName(c as XmlElement) === name);
}

function readDocument(text: string, path: string): XmlDocument {
  try {
    // Custom entities (a DTD's, as in "billion laughs") are never expanded: a reference to one
    // is an error, and external DTDs are never loaded.
    return parseXml(text);
  } catch (err) {
    if (!(err instanceof XmlError)) throw err;
    const reason = err.message.split('\n')[0]!.replace(/ \(line \d+, column \d+\)$/, '');
    throw refuse(path, `is not well-formed XML at line ${err.line}, column ${err.column}: ${reason}.`);
  }
}

/**
 * The lines of a GPX document in document order: the points of every trk/trkseg, or, when there
 * is no track point at all, of every rte. Waypoints (wpt) are places, not the line: ignored.
 */
function readPoints(gpx: XmlElement, path: string): { points: RawPoint[]; warnings: string[] } {
  const points: RawPoint[] = [];
  const warnings: string[] = [];
  const read = (element: XmlElement, where: string) => {
    if (points.length >= INPUT_POINTS_MAX) {
      throw refuse(
        path,
        `has more than ${INPUT_POINTS_MAX.toLocaleString('en')} points; split the hike or thin the file.`,
      );
    }
    points.push(readPoint(element, where, path));
  };
  const tracks = childElements(gpx, 'trk');
  let tracksWithPoints = 0;
  for (const [t, trk] of tracks.entries()) {
    const before = points.length;
    for (const [s, seg] of childElements(trk, 'trkseg').entries()) {
      for (const [p, pt] of childElements(seg, 'trkpt').entries()) {
        read(pt, `track ${t + 1}, segment ${s + 1}, point ${p + 1}`);
      }
    }
    if (points.length > before) tracksWithPoints += 1;
  }
  if (tracksWithPoints > 1) {
    warnings.push(
      `The GPX has ${tracksWithPoints} tracks; they were joined in file order into one line. If they are ` +
        'separate hikes, send each as its own hike.',
    );
  }
  if (points.length > 0) return { points, warnings };
  const routes = childElements(gpx, 'rte');
  for (const [r, rte] of routes.entries()) {
    for (const [p, pt] of childElements(rte, 'rtept').entries()) read(pt, `route ${r + 1}, point ${p + 1}`);
  }
  if (routes.length > 1 && points.length > 0) {
    warnings.push(`The GPX has ${routes.length} routes and no track; the routes were joined in file order.`);
  }
  return { points, warnings };
}

function readPoint(element: XmlElement, where: string, path: string): RawPoint {
  const number = (raw: string | undefined, what: string): number => {
    const value = raw?.trim();
    if (value === undefined || !DECIMAL.test(value)) {
      throw refuse(
        path,
        `${where}: ${what} ${raw === undefined ? 'is missing' : `${JSON.stringify(raw)} is not a number`}.`,
      );
    }
    return Number(value);
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
function settleElevations(raw: readonly RawPoint[], warnings: string[]): Position[] {
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
  const root = readDocument(text, path).root;
  if (root === null || localName(root) !== 'gpx') {
    throw refuse(path, `is not a GPX document: its root element is <${root?.name ?? ''}>, not <gpx>.`);
  }
  const { points, warnings } = readPoints(root, path);
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
