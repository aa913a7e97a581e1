import { INPUT_POINTS_MAX, type Position } from '../../../shared/tracks/track.schema.ts';
import type { FileReader, ImportedValue } from '../imported-file.ts';
import { checkPosition, namedFields } from './feature-fields.ts';
import { FeatureList, refuseContent } from './feature-list.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A feature's simple properties as written. Nested objects and arrays are left out: a spot holds
 * no structure, and walking one of any depth is work a hostile file could make unbounded.
 */
function simpleProperties(properties: unknown): Record<string, ImportedValue> {
  const kept: Record<string, ImportedValue> = {};
  if (!isObject(properties)) return kept;
  for (const [field, value] of Object.entries(properties)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      kept[field] = value as ImportedValue;
    }
  }
  return kept;
}

/** A position as GeoJSON writes it ([lon, lat] or [lon, lat, ele]), refused off the globe. */
function positionOf(value: unknown, where: string): Position {
  if (!Array.isArray(value) || value.length < 2 || !value.slice(0, 3).every((n) => typeof n === 'number')) {
    throw refuseContent(`${where}: a position must be [longitude, latitude] or [longitude, latitude, elevation].`);
  }
  const [lon, lat, ele] = value as number[];
  checkPosition(lon as number, lat as number, where);
  return ele === undefined ? [lon as number, lat as number] : [lon as number, lat as number, ele];
}

function positionsOf(value: unknown, where: string): Position[] {
  if (!Array.isArray(value)) throw refuseContent(`${where}: coordinates must be an array of positions.`);
  if (value.length > INPUT_POINTS_MAX) {
    throw refuseContent(`${where}: has more than ${INPUT_POINTS_MAX.toLocaleString('en')} points.`);
  }
  return value.map((p, i) => positionOf(p, `${where}, point ${i + 1}`));
}

/** What the features of one GeoJSON Feature become: places, a line, or a reason it is passed over. */
function readFeature(feature: unknown, where: string, list: FeatureList): void {
  if (!isObject(feature) || feature.type !== 'Feature') {
    throw refuseContent(`${where}: is not a GeoJSON Feature (its type must be "Feature").`);
  }
  const ownId = typeof feature.id === 'string' || typeof feature.id === 'number' ? String(feature.id) : undefined;
  const fields = namedFields(simpleProperties(feature.properties), ownId);
  const base = { where, folder: undefined, ...fields };
  const geometry = feature.geometry;
  if (geometry === null || geometry === undefined) {
    list.add({ ...base, kind: 'point', lon: undefined, lat: undefined });
    return;
  }
  if (!isObject(geometry)) throw refuseContent(`${where}: geometry must be an object or null.`);
  const add = list.add.bind(list);
  switch (geometry.type) {
    case 'Point': {
      const [lon, lat] = positionOf(geometry.coordinates, where) as [number, number];
      add({ ...base, kind: 'point', lon, lat });
      return;
    }
    case 'MultiPoint': {
      const points = positionsOf(geometry.coordinates, where);
      for (const [i, [lon, lat]] of points.entries()) {
        // Each point its own place; the file's id told apart by the point's number when there are several.
        const sourceId =
          base.sourceId === undefined || points.length === 1 ? base.sourceId : `${base.sourceId}-${i + 1}`;
        add({ ...base, where: `${where}, point ${i + 1}`, sourceId, kind: 'point', lon, lat });
      }
      return;
    }
    case 'LineString':
      add({ ...base, kind: 'line', points: positionsOf(geometry.coordinates, where) });
      return;
    case 'MultiLineString': {
      // The parts of one line with gaps (a track paused), joined in order as GPX segments are.
      if (!Array.isArray(geometry.coordinates)) throw refuseContent(`${where}: coordinates must be an array.`);
      const parts = geometry.coordinates.map((part, i) => positionsOf(part, `${where}, line ${i + 1}`));
      add({ ...base, kind: 'line', points: parts.flat() });
      return;
    }
    default:
      list.skip(where, `a ${String(geometry.type)} is neither a place nor a line: only points and lines are imported.`);
  }
}

/**
 * GeoJSON (RFC 7946): a FeatureCollection or one Feature. Points (and each point of a MultiPoint)
 * are places, LineStrings and MultiLineStrings lines; other geometries are passed over with a reason.
 */
export const readGeojson: FileReader = (content) => {
  let document: unknown;
  try {
    document = JSON.parse(content);
  } catch (err) {
    throw refuseContent(`is not valid JSON, so not GeoJSON (${(err as Error).message}).`);
  }
  const list = new FeatureList();
  if (isObject(document) && document.type === 'FeatureCollection' && Array.isArray(document.features)) {
    for (const [i, feature] of document.features.entries()) readFeature(feature, `feature ${i + 1}`, list);
    return list.file;
  }
  if (isObject(document) && document.type === 'Feature') {
    readFeature(document, 'feature 1', list);
    return list.file;
  }
  throw refuseContent(
    'is not a GeoJSON FeatureCollection or Feature: its top level must have "type": "FeatureCollection" with ' +
      '"features", or "type": "Feature".',
  );
};
