import type { XmlElement } from '@rgrove/parse-xml';
import { INPUT_POINTS_MAX, type Position, pointProblem } from '../../../shared/tracks/track.schema.ts';
import { childElements, childText, localName, xmlDecimal } from '../../../shared/xml.ts';
import { refuseContent } from './feature-list.ts';

/**
 * The geometries of one KML Placemark, flattened: points, lines, and what is not taken and why.
 * A coordinate that is not a number or lies out of range refuses the whole file (a file with a
 * latitude of 95 has its columns swapped or is corrupt: importing the rest would place wrong
 * things); a geometry that is well formed but not a place or a line is skipped with its reason.
 */
export type KmlGeometry =
  | { kind: 'point'; lon: number | undefined; lat: number | undefined }
  | { kind: 'line'; points: Position[] }
  | { kind: 'skipped'; reason: string };

const SKIPPED = new Map([
  ['Polygon', 'it is a polygon, an area rather than a place; draw it as an area of the guide'],
  ['Model', 'it is a 3D model, not a place'],
]);

/**
 * KML altitudes count only with altitudeMode absolute: the default, clampToGround, tells viewers
 * to ignore them (Google My Maps writes ",0" after every point), and relativeToGround is a height
 * above the ground, not an elevation. So a line keeps them as elevations only when absolute.
 */
function keepsAltitude(geometry: XmlElement): boolean {
  return childText(geometry, 'altitudeMode') === 'absolute';
}

/** One position checked: numbers as KML writes them, in range, [lon, lat] or [lon, lat, ele]. */
function position(values: string[], keepAltitude: boolean, where: string): Position {
  const numbers = values.map((raw) => {
    const value = xmlDecimal(raw);
    if (value === undefined) throw refuseContent(`${where}: ${JSON.stringify(raw)} is not a number.`);
    return value;
  });
  const point = keepAltitude ? numbers : numbers.slice(0, 2);
  const problem = pointProblem(point);
  if (problem !== undefined) throw refuseContent(`${where}: ${problem}.`);
  return point;
}

/**
 * The tuples of a <coordinates>: "lon,lat[,alt]" separated by white space. Some writers put a
 * space after each comma, which is read as the comma it follows.
 */
function coordinates(geometry: XmlElement, where: string): Position[] {
  const text = (childElements(geometry, 'coordinates')[0]?.text ?? '').replace(/,\s+/g, ',').trim();
  if (text === '') return [];
  const tuples = text.split(/\s+/);
  if (tuples.length > INPUT_POINTS_MAX) {
    throw refuseContent(`${where}: a line has more than ${INPUT_POINTS_MAX.toLocaleString('en')} points.`);
  }
  const keep = keepsAltitude(geometry) && tuples.every((t) => t.split(',').length === 3);
  return tuples.map((tuple, i) => {
    const values = tuple.split(',');
    if (values.length < 2 || values.length > 3) {
      throw refuseContent(
        `${where}, coordinate ${i + 1}: ${JSON.stringify(tuple)} is not lon,lat or lon,lat,altitude.`,
      );
    }
    return position(values, keep, `${where}, coordinate ${i + 1}`);
  });
}

/** A gx:Track: <gx:coord> elements of "lon lat alt", separated by spaces. */
function trackCoordinates(track: XmlElement, where: string): Position[] {
  const coords = childElements(track, 'coord');
  if (coords.length > INPUT_POINTS_MAX) {
    throw refuseContent(`${where}: a track has more than ${INPUT_POINTS_MAX.toLocaleString('en')} points.`);
  }
  const keep = keepsAltitude(track);
  return coords.map((coord, i) => position(coord.text.trim().split(/\s+/), keep, `${where}, coord ${i + 1}`));
}

function asLine(points: Position[]): KmlGeometry {
  return points.length >= 2
    ? { kind: 'line', points }
    : { kind: 'skipped', reason: 'it is a line of fewer than two points' };
}

/** The geometries directly in `element` (a Placemark or a MultiGeometry), in file order, nested ones flattened. */
export function kmlGeometries(element: XmlElement, where: string, found: KmlGeometry[] = []): KmlGeometry[] {
  for (const geometry of childElements(element)) {
    const kind = localName(geometry);
    if (kind === 'Point') {
      const [point, ...more] = coordinates(geometry, where);
      if (more.length > 0) throw refuseContent(`${where}: a <Point> has ${more.length + 1} coordinates; it takes one.`);
      found.push({ kind: 'point', lon: point?.[0], lat: point?.[1] });
    } else if (kind === 'LineString' || kind === 'LinearRing') {
      found.push(asLine(coordinates(geometry, where)));
    } else if (kind === 'Track') {
      found.push(asLine(trackCoordinates(geometry, where)));
    } else if (kind === 'MultiGeometry' || kind === 'MultiTrack') {
      kmlGeometries(geometry, where, found);
    } else {
      const reason = SKIPPED.get(kind);
      if (reason !== undefined) found.push({ kind: 'skipped', reason });
    }
  }
  return found;
}
