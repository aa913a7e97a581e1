import { countsOf, type ExportGuide, type ExportLine, type ExportSpot } from '../export-guide.ts';
import { counted, type MapFile } from './map-file.ts';
import { areaNames, propertyName, valueText } from './spot-properties.ts';
import { decimal, element, escapeXml, textElement, XML_DECLARATION } from './xml.ts';

const GPX_NS = 'http://www.topografix.com/GPX/1/1';

const isWeb = (url: string | undefined): url is string => url !== undefined && /^https?:\/\//i.test(url);

/** The spot's collections, hours and custom properties as "Label: value" lines: GPX has no field of its own for them. */
function comment(spot: ExportSpot): string | undefined {
  const lines = [
    ...(spot.collections.length > 0 ? [`Collections: ${spot.collections.join(', ')}`] : []),
    ...(spot.hours ? [`Hours: ${spot.hours}`] : []),
    ...spot.properties.map((p) => `${p.label || propertyName(p.key)}: ${valueText(p.value)}`),
  ];
  return lines.length === 0 ? undefined : lines.join('\n');
}

/** A waypoint; its children in the order GPX 1.1's schema requires (name, cmt, desc, link, type). */
function waypoint(spot: ExportSpot & { lat: number; lon: number }, areaName: string | undefined): string {
  return element(
    'wpt',
    { lat: decimal(spot.lat), lon: decimal(spot.lon) },
    textElement('name', spot.name),
    textElement('cmt', comment(spot)),
    textElement('desc', spot.description),
    ...spot.links
      .filter((l) => isWeb(l.url))
      .map((l) => element('link', { href: l.url }, textElement('text', l.label ?? l.kind))),
    textElement('type', areaName),
  );
}

function track(line: ExportLine & { coordinates: number[][] }): string {
  const points = line.coordinates.map(([lon = 0, lat = 0, ele]) =>
    element(
      'trkpt',
      { lat: decimal(lat), lon: decimal(lon) },
      ele === undefined ? undefined : element('ele', {}, escapeXml(decimal(ele, 1))),
    ),
  );
  return element(
    'trk',
    {},
    textElement('name', line.name),
    textElement('desc', line.description),
    textElement('type', line.kind),
    element('trkseg', {}, ...points),
  );
}

/**
 * GPX 1.1, as Komoot, OsmAnd, Gaia and Garmin devices open it: spots as waypoints (their area as
 * the waypoint's type), routes and hikes as tracks of one segment. What GPX cannot place (a spot
 * without a position, a route without a track) is left out and said.
 */
export function writeGpx(guide: ExportGuide): MapFile {
  const names = areaNames(guide);
  const placed = guide.spots.filter(
    (s): s is ExportSpot & { lat: number; lon: number } => s.lat !== null && s.lon !== null,
  );
  const tracked = guide.lines.filter(
    (l): l is ExportLine & { coordinates: number[][] } => l.coordinates !== null && l.coordinates.length >= 2,
  );
  const gpx = element(
    'gpx',
    { version: '1.1', creator: 'Creator API', xmlns: GPX_NS },
    element('metadata', {}, textElement('name', guide.name)),
    ...placed.map((s) => waypoint(s, s.areaId === null ? undefined : names.get(s.areaId))),
    ...tracked.map(track),
  );
  const leftOut = [
    ...(placed.length < guide.spots.length
      ? [`${counted(guide.spots.length - placed.length, 'spot')} without a position (a waypoint needs one)`]
      : []),
    ...(tracked.length < guide.lines.length
      ? [`${counted(guide.lines.length - tracked.length, 'route or hike', 'routes and hikes')} without a track`]
      : []),
    ...(guide.areas.length > 0 ? ['areas: GPX has no folders; each waypoint names its area as its type'] : []),
  ];
  const counts = countsOf({ ...guide, areas: [], spots: placed, lines: tracked });
  return { text: `${XML_DECLARATION}${gpx}\n`, counts, leftOut };
}
