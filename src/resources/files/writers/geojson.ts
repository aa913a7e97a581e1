import { countsOf, type ExportGuide, type ExportLine } from '../export-guide.ts';
import type { MapFile } from './map-file.ts';
import { areaNames, spotFields } from './spot-properties.ts';
import { decimal } from './xml.ts';

/** A coordinate rounded to 7 decimals, as a number (JSON writes it as it reads). */
const round = (n: number, decimals = 7) => Number(decimal(n, decimals));

function position(point: readonly number[]): number[] {
  const [lon = 0, lat = 0, ele] = point;
  return ele === undefined ? [round(lon), round(lat)] : [round(lon), round(lat), round(ele, 1)];
}

const lineGeometry = (line: ExportLine) =>
  line.coordinates && line.coordinates.length >= 2
    ? { type: 'LineString', coordinates: line.coordinates.map(position) }
    : null;

/**
 * RFC 7946 GeoJSON: one FeatureCollection, areas first (no geometry: an area has none yet), then
 * spots as Points (null geometry without a position) and routes and hikes as LineStrings, each
 * with `kind` saying which. Properties are flat, as map apps and GIS tools show them.
 */
export function writeGeoJson(guide: ExportGuide): MapFile {
  const names = areaNames(guide);
  const features = [
    ...guide.areas.map((area) => ({
      type: 'Feature',
      id: area.id,
      geometry: null,
      properties: { kind: 'area', name: area.name, areaKind: area.kind, note: area.note, season: area.season },
    })),
    ...guide.spots.map((spot) => ({
      type: 'Feature',
      id: spot.id,
      geometry:
        spot.lat === null || spot.lon === null ? null : { type: 'Point', coordinates: position([spot.lon, spot.lat]) },
      properties: {
        kind: 'spot',
        name: spot.name,
        description: spot.description,
        ...(spot.areaId !== null && { areaId: spot.areaId }),
        links: spot.links.map((l) => ({ kind: l.kind, label: l.label, url: l.url, value: l.value })),
        ...Object.fromEntries(spotFields(spot, spot.areaId === null ? undefined : names.get(spot.areaId))),
      },
    })),
    ...guide.lines.map((line) => ({
      type: 'Feature',
      id: line.id,
      geometry: lineGeometry(line),
      properties: { kind: line.kind, name: line.name, description: line.description, distanceKm: line.distanceKm },
    })),
  ];
  const text = JSON.stringify({ type: 'FeatureCollection', name: guide.name, features });
  return { text, counts: countsOf(guide), leftOut: [] };
}
