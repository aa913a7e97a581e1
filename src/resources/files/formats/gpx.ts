import type { XmlElement } from '@rgrove/parse-xml';
import {
  gpxPointReader,
  gpxRoutePoints,
  gpxTrackPoints,
  type RawPoint,
  readGpxPoint,
  readGpxRoot,
  settleElevations,
} from '../../../shared/tracks/gpx.ts';
import { childElements, childText, localName } from '../../../shared/xml.ts';
import type { FileReader, ImportedValue } from '../imported-file.ts';
import { CONTENT, FeatureList } from './feature-list.ts';

/**
 * GPX (Komoot, Outdooractive, Garmin, OsmAnd): waypoints become places, each track and each route
 * a line. The XML, the points and their elevations are read by the very code a hike's `track.gpx`
 * goes through (src/shared/tracks/gpx.ts), so a track imported from a file measures what the same
 * file uploaded to a hike measures.
 */

/** GPX's own words for what a waypoint or line says beyond its name, kept by those names. */
const KEPT = ['time', 'src', 'type', 'sym', 'number'] as const;

/**
 * The name, the description and the rest: <desc> is the description, or <cmt> when there is no
 * <desc> (some writers fill only one); a <cmt> beside a <desc> stays a property. The first link
 * (GPX 1.1 <link href>, GPX 1.0 <url>) is `link`.
 */
function textOf(element: XmlElement) {
  const desc = childText(element, 'desc');
  const cmt = childText(element, 'cmt');
  const properties: Record<string, ImportedValue> = {};
  if (desc !== undefined && cmt !== undefined) properties.cmt = cmt;
  for (const name of KEPT) {
    const value = childText(element, name);
    if (value !== undefined) properties[name] = value;
  }
  const link = childElements(element, 'link')[0]?.attributes.href?.trim() || childText(element, 'url');
  if (link) properties.link = link;
  return {
    name: childText(element, 'name'),
    description: desc ?? cmt,
    sourceId: undefined,
    properties,
    folder: undefined,
  };
}

function readLine(list: FeatureList, element: XmlElement, where: string, raw: RawPoint[]): void {
  if (raw.length < 2) {
    list.skip(where, raw.length === 0 ? 'it has no points' : 'it has only one point; a line needs at least two');
    return;
  }
  // Elevations settled per line as a hike's track settles them; the warning has no place here,
  // the line's own points say it.
  list.add({ kind: 'line', where, ...textOf(element), points: settleElevations(raw, []) });
}

export const readGpx: FileReader = (content) => {
  const root = readGpxRoot(content, CONTENT);
  const read = gpxPointReader(CONTENT);
  const list = new FeatureList();
  const seen = { wpt: 0, trk: 0, rte: 0 };
  for (const child of childElements(root)) {
    const kind = localName(child);
    if (kind === 'wpt') {
      const where = `waypoint ${++seen.wpt}`;
      const { lon, lat, ele } = readGpxPoint(child, where, CONTENT);
      const text = textOf(child);
      if (ele !== undefined) text.properties.ele = ele;
      list.add({ kind: 'point', where, ...text, lon, lat });
    } else if (kind === 'trk') {
      readLine(list, child, `track ${seen.trk + 1}`, gpxTrackPoints(child, seen.trk++, read));
    } else if (kind === 'rte') {
      readLine(list, child, `route ${seen.rte + 1}`, gpxRoutePoints(child, seen.rte++, read));
    }
  }
  return list.file;
};
