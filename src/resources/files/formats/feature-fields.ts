import { pointProblem } from '../../../shared/tracks/track.schema.ts';
import type { ImportedValue } from '../imported-file.ts';
import { refuseContent } from './feature-list.ts';

/**
 * What every reader does alike with what a file says of a feature: which of its fields are the
 * name, description and id (the first present of the usual spellings), the rest kept as simple
 * properties, and positions checked against the globe (the count is FeatureList's).
 */

const NAME_FIELDS = ['name', 'title'];
const DESCRIPTION_FIELDS = ['description', 'desc'];
const ID_FIELDS = ['id'];

/** The first field whose name is one of `wanted` in any case, with a value that says something. */
function pick(fields: Record<string, ImportedValue>, wanted: readonly string[]): [string, string] | undefined {
  for (const want of wanted) {
    for (const [field, value] of Object.entries(fields)) {
      if (field.trim().toLowerCase() !== want || value === null || value === '') continue;
      return [field, String(value)];
    }
  }
  return undefined;
}

export interface NamedFields {
  name: string | undefined;
  description: string | undefined;
  sourceId: string | undefined;
  properties: Record<string, ImportedValue>;
}

/**
 * Name, description and the file's own id taken out of a feature's fields, as written; the others
 * left as its properties. `ownId` is an id the format gives outside the fields (GeoJSON's `id`).
 */
export function namedFields(fields: Record<string, ImportedValue>, ownId?: string): NamedFields {
  const properties = { ...fields };
  const take = (wanted: readonly string[]) => {
    const found = pick(properties, wanted);
    if (!found) return undefined;
    delete properties[found[0]];
    return found[1];
  };
  const name = take(NAME_FIELDS);
  const description = take(DESCRIPTION_FIELDS);
  const sourceId = ownId ?? take(ID_FIELDS);
  return { name, description, sourceId, properties };
}

/** Refuses a position off the globe, saying where in the file: a file that says so is wrong, not a skip. */
export function checkPosition(lon: number, lat: number, where: string): void {
  const problem = pointProblem([lon, lat], 'attributes');
  if (problem !== undefined) throw refuseContent(`${where}: ${problem}.`);
}
