import { countsOf, type ExportGuide, type ExportLine, type ExportSpot } from '../export-guide.ts';
import type { MapFile } from './map-file.ts';
import { linkText, propertyName, spotFields, valueText } from './spot-properties.ts';
import { decimal, element, escapeXml, textElement, XML_DECLARATION } from './xml.ts';

const KML_NS = 'http://www.opengis.net/kml/2.2';

/** KML coordinates: "lon,lat[,ele]" tuples separated by spaces. */
const coordinates = (points: readonly (readonly number[])[]) =>
  element(
    'coordinates',
    {},
    escapeXml(
      points
        .map(([lon = 0, lat = 0, ele]) =>
          [decimal(lon), decimal(lat), ...(ele === undefined ? [] : [decimal(ele, 1)])].join(','),
        )
        .join(' '),
    ),
  );

/** ExtendedData with one Data per field, its display name the property's label where it has one. */
function extendedData(fields: [string, string][], labels: ReadonlyMap<string, string>): string | undefined {
  if (fields.length === 0) return undefined;
  return element(
    'ExtendedData',
    {},
    ...fields.map(([name, value]) =>
      element('Data', { name }, textElement('displayName', labels.get(name)), element('value', {}, escapeXml(value))),
    ),
  );
}

function spotPlacemark(spot: ExportSpot, areaName: string | undefined): string {
  const fields = spotFields(spot, areaName).map(([name, value]): [string, string] => [name, valueText(value)]);
  if (spot.links.length > 0) fields.push(['links', spot.links.map(linkText).join('\n')]);
  const labels = new Map(spot.properties.map((p) => [propertyName(p.key), p.label]));
  return element(
    'Placemark',
    { id: spot.id },
    textElement('name', spot.name),
    textElement('description', spot.description),
    extendedData(fields, labels),
    spot.lat !== null && spot.lon !== null && element('Point', {}, coordinates([[spot.lon, spot.lat]])),
  );
}

function linePlacemark(line: ExportLine): string {
  const fields: [string, string][] = [['kind', line.kind]];
  if (line.distanceKm !== null) fields.push(['distanceKm', String(line.distanceKm)]);
  return element(
    'Placemark',
    { id: line.id },
    textElement('name', line.name),
    textElement('description', line.description),
    extendedData(fields, new Map()),
    line.coordinates !== null &&
      line.coordinates.length >= 2 &&
      element(
        'LineString',
        {},
        element('tessellate', {}, '1'),
        // Elevations are heights above sea level; without this, viewers and readers (ours too) drop them.
        line.coordinates.some((p) => p[2] !== undefined) && element('altitudeMode', {}, 'absolute'),
        coordinates(line.coordinates),
      ),
  );
}

const folder = (name: string, ...children: (string | undefined)[]) =>
  element('Folder', {}, textElement('name', name), ...children);

/**
 * KML 2.2, as Google Earth and My Maps open it: each area a Folder of its spots (an area has no
 * outline to draw yet), the spots of no area at the top, then a Folder of routes and one of hikes
 * as LineStrings. Custom properties travel as ExtendedData, named by key and shown by label.
 */
export function writeKml(guide: ExportGuide): MapFile {
  const inArea = (areaId: string | null) => guide.spots.filter((s) => s.areaId === areaId);
  const areaIds = new Set(guide.areas.map((a) => a.id));
  const areaFolders = guide.areas.map((area) =>
    folder(
      area.name,
      textElement('description', area.note),
      ...inArea(area.id).map((s) => spotPlacemark(s, area.name)),
    ),
  );
  const loose = guide.spots
    .filter((s) => s.areaId === null || !areaIds.has(s.areaId))
    .map((s) => spotPlacemark(s, undefined));
  const lines = (kind: ExportLine['kind'], name: string) => {
    const of = guide.lines.filter((l) => l.kind === kind);
    return of.length === 0 ? undefined : folder(name, ...of.map(linePlacemark));
  };
  const document = element(
    'Document',
    {},
    textElement('name', guide.name),
    ...areaFolders,
    ...loose,
    lines('route', 'Routes'),
    lines('hike', 'Hikes'),
  );
  return {
    text: `${XML_DECLARATION}${element('kml', { xmlns: KML_NS }, document)}\n`,
    counts: countsOf(guide),
    leftOut: [],
  };
}
