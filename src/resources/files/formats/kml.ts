import type { XmlElement } from '@rgrove/parse-xml';
import { childElements, childText, localName, readXml } from '../../../shared/xml.ts';
import type { FileReader, ImportedValue } from '../imported-file.ts';
import { readDescription } from './description.ts';
import { CONTENT, FeatureList, refuseContent } from './feature-list.ts';
import { kmlGeometries } from './kml-geometry.ts';

/**
 * KML (Google My Maps, Google Earth, most map tools): each Placemark's points become places and
 * its lines lines; Folders give each its `folder` path. Read straight from the XML tree rather
 * than through @tmcw/togeojson: docs/decisions/files.md (Readers) says why.
 */

/** Features a guide cannot hold, skipped with their reason rather than passed over in silence. */
const NOT_PLACES = new Map([
  ['NetworkLink', 'it links to another file, which an import does not fetch'],
  ['GroundOverlay', 'it is an image laid on the map, not a place'],
  ['ScreenOverlay', 'it is an image laid on the screen, not a place'],
  ['PhotoOverlay', 'it is a photo laid on the map, not a place'],
]);

/**
 * What a Placemark says beyond its name: ExtendedData (<Data name><value>, <SchemaData><SimpleData
 * name>) first, then the facts its description holds (readDescription) under names ExtendedData
 * does not already have. A "name" or "description" equal to the Placemark's own says nothing new
 * (My Maps repeats its description column among the data).
 */
function propertiesOf(
  extendedData: XmlElement[],
  said: { name: string | undefined; description: string | undefined },
  described: Record<string, string>,
) {
  // A Map, not an object: a key is the file's word, "__proto__" included.
  const values = new Map<string, ImportedValue>();
  const keep = (key: string | undefined, value: string) => {
    const k = key?.trim();
    if (k && !values.has(k)) values.set(k, value.trim());
  };
  for (const data of extendedData) {
    for (const d of childElements(data, 'Data')) keep(d.attributes.name, childElements(d, 'value')[0]?.text ?? '');
    for (const schemaData of childElements(data, 'SchemaData')) {
      for (const s of childElements(schemaData, 'SimpleData')) keep(s.attributes.name, s.text);
    }
  }
  for (const [key, value] of Object.entries(described)) keep(key, value);
  for (const [key, value] of values) {
    const own = key.toLowerCase();
    if ((own === 'name' || own === 'description') && value === said[own]) values.delete(key);
  }
  return Object.fromEntries(values);
}

/**
 * One Placemark: a feature per point or line it holds (a MultiGeometry gives several, `where` and
 * `sourceId` then numbered), one point without a position when it holds no geometry at all (the
 * import names it, rather than guess), and a skip for each geometry that is not taken.
 */
function readPlacemark(placemark: XmlElement, where: string, folders: string[], list: FeatureList): void {
  // One pass over the children, however many a hostile file gives it.
  const parts = new Map<string, XmlElement[]>();
  for (const child of childElements(placemark)) {
    const kind = localName(child);
    const same = parts.get(kind);
    if (same === undefined) parts.set(kind, [child]);
    else same.push(child);
  }
  const text = (kind: string) => parts.get(kind)?.[0]?.text.trim() || undefined;
  const name = text('name');
  const described = readDescription(text('description'));
  const id = placemark.attributes.id?.trim() || undefined;
  const base = {
    name,
    description: described.text,
    properties: propertiesOf(
      parts.get('ExtendedData') ?? [],
      { name, description: described.text },
      described.properties,
    ),
    folder: folders.length === 0 ? undefined : folders.join(' / '),
  };
  const geometries = kmlGeometries(placemark, where);
  if (geometries.length === 0) {
    list.add({ kind: 'point', where, ...base, sourceId: id, lon: undefined, lat: undefined });
    return;
  }
  const several = geometries.length > 1;
  for (const [i, geometry] of geometries.entries()) {
    const at = several ? `${where}, geometry ${i + 1}` : where;
    const sourceId = several && id !== undefined ? `${id}-${i + 1}` : id;
    if (geometry.kind === 'skipped') list.skip(at, geometry.reason);
    else list.add({ ...geometry, where: at, ...base, sourceId });
  }
}

/** Walks Documents and Folders in file order; nesting is bounded by readXml's depth cap. */
function walk(container: XmlElement, folders: string[], list: FeatureList, seen: Map<string, number>): void {
  for (const child of childElements(container)) {
    const kind = localName(child);
    if (kind === 'Document') walk(child, folders, list, seen);
    else if (kind === 'Folder') {
      const name = childText(child, 'name');
      walk(child, name === undefined ? folders : [...folders, name], list, seen);
    } else if (kind === 'Placemark' || NOT_PLACES.has(kind)) {
      const n = (seen.get(kind) ?? 0) + 1;
      seen.set(kind, n);
      if (kind === 'Placemark') readPlacemark(child, `Placemark ${n}`, folders, list);
      else list.skip(`${kind} ${n}`, NOT_PLACES.get(kind)!);
    }
  }
}

export const readKml: FileReader = (content) => {
  const root = readXml(content, CONTENT);
  if (root === null || localName(root) !== 'kml') {
    throw refuseContent(`is not a KML document: its root element is <${root?.name ?? ''}>, not <kml>.`);
  }
  const list = new FeatureList();
  walk(root, [], list, new Map());
  return list.file;
};
