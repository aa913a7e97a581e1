import type { z } from 'zod';
import type { ApiError } from '../../../core/errors.ts';
import type { AnyOperation } from '../../../core/operation.ts';
import { issuesToError } from '../../../core/validation.ts';
import { AREAS_PER_GUIDE, areasResource } from '../../areas/index.ts';
import { chaptersResource } from '../../chapters/index.ts';
import { facilitiesResource } from '../../facilities/index.ts';
import { guidesResource } from '../../guides/index.ts';
import { itinerariesResource } from '../../itineraries/index.ts';
import { mediaResource } from '../../media/index.ts';
import { propertiesResource } from '../../properties/index.ts';
import { routesResource } from '../../routes/index.ts';
import { salesPageResource } from '../../sales-page/index.ts';
import { spotsResource } from '../../spots/index.ts';
import type { ArchiveRecords } from './archive-format.ts';

/**
 * An archive's records held to the inputs of the operations that write them: each field a record
 * holds is parsed with the field's schema in the first of its operations that takes it
 * (create_spot's, then update_spot's...), so every length, count, range and enum value the write
 * operations check holds for an imported guide too, in their words, without a second copy of any
 * limit. A field no operation takes (ids, stamps, what the service works out) is left to the
 * record checks (record-shapes.ts, record-ids.ts).
 */

type Refusal = (part: string, sentence: string) => ApiError;
type Fields = Record<string, z.ZodType>;

/** The write operations of the resources an archive holds records of, by name. */
function writeOperations(): Map<string, AnyOperation> {
  const resources = [
    guidesResource,
    areasResource,
    propertiesResource,
    spotsResource,
    facilitiesResource,
    routesResource,
    chaptersResource,
    mediaResource,
    itinerariesResource,
    salesPageResource,
  ];
  return new Map(resources.flatMap((r) => r.operations.map((op): [string, AnyOperation] => [op.name, op])));
}

/** The fields of these operations' inputs, the first one's where two take the same field. */
function fieldsOf(operations: Map<string, AnyOperation>, ...names: string[]): Fields {
  const fields: Fields = {};
  for (const name of names.toReversed()) {
    const shape = (operations.get(name)?.input as unknown as { shape?: Fields } | undefined)?.shape;
    if (!shape) throw new Error(`import_guide: no operation ${name} with an object input to check records against`);
    Object.assign(fields, shape);
  }
  return fields;
}

/** Made at the first import, not when this module loads: the resources it reads may load after it. */
let fieldsOfParts: ReturnType<typeof partFields> | undefined;

function partFields() {
  const ops = writeOperations();
  const connections = ['set_route_spots', 'set_route_facilities'];
  return {
    guide: fieldsOf(ops, 'create_guide', 'update_guide'),
    region: fieldsOf(ops, 'set_guide_region'),
    area: fieldsOf(ops, 'set_area'),
    property: fieldsOf(ops, 'create_property', 'update_property'),
    spot: fieldsOf(ops, 'create_spot', 'update_spot'),
    place: fieldsOf(ops, 'create_facility', 'update_facility'),
    route: fieldsOf(ops, 'create_route', 'update_route', ...connections),
    hike: fieldsOf(ops, 'create_hike', 'update_hike', ...connections),
    chapter: fieldsOf(
      ops,
      'create_chapter',
      'update_chapter',
      'set_chapter_members',
      'set_chapter_intro',
      'set_chapter_pages',
    ),
    photo: fieldsOf(ops, 'update_media'),
    itinerary: fieldsOf(ops, 'create_itinerary', 'update_itinerary', 'set_itinerary_days'),
    salesPage: fieldsOf(ops, 'save_sales_page_draft'),
  };
}

/** A record's nulls are values it does not hold, which an input leaves out: taken out, all the way down. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

/**
 * Each field of `record` an operation takes, parsed with that operation's schema for it: as stored,
 * else with its nulls left out (a stored null is an input left out). Refused naming the record's
 * place and the field's path, in the operation's words.
 */
function checkFields(where: string, fields: Fields, record: object, refusal: Refusal): void {
  for (const [field, value] of Object.entries(record)) {
    const schema = fields[field];
    if (schema === undefined || value === undefined) continue;
    if (schema.safeParse(value).success) continue;
    if (value === null) continue;
    const parsed = schema.safeParse(withoutNulls(value), { reportInput: true });
    if (!parsed.success) throw refusalOf(where, parsed.error.issues, refusal, [field]);
  }
}

/** The refusal of a record's value, naming where it stands and its field, in the operations' words. */
export function refusalOf(
  where: string,
  issues: readonly z.core.$ZodIssue[],
  refusal: Refusal,
  inside: PropertyKey[] = [],
): ApiError {
  const error = issuesToError(issues.map((i) => ({ ...i, path: [...inside, ...i.path] })));
  const path = String(error.details?.path ?? '');
  const sentence = path === '' ? error.message : error.message.slice(path.length + 2);
  return refusal(`records.json ${where}${path === '' ? '' : `.${path}`}`, `${sentence}.`);
}

/** What of one record is checked: a place inside it ('' for the record itself), the fields, the values. */
type Checked = [inside: string, fields: Fields, values: object];

function checkEach<T>(part: string, records: readonly T[], refusal: Refusal, checked: (record: T) => Checked[]) {
  for (const [i, record] of records.entries()) {
    for (const [inside, fields, values] of checked(record)) {
      checkFields(`${part}[${i}]${inside}`, fields, values, refusal);
    }
  }
}

export function checkRecordFields(records: ArchiveRecords, refusal: Refusal): void {
  fieldsOfParts ??= partFields();
  const FIELDS = fieldsOfParts;
  const { guide } = records;
  checkFields('guide', FIELDS.guide, guide, refusal);
  if (guide.region) checkFields('guide.region', FIELDS.region, guide.region, refusal);
  if (guide.areas.length > AREAS_PER_GUIDE) {
    throw refusal(
      'records.json guide.areas',
      `holds ${guide.areas.length} areas; a guide holds at most ${AREAS_PER_GUIDE}.`,
    );
  }
  checkEach('guide.areas', guide.areas, refusal, (area) => [['', FIELDS.area, area]]);
  checkEach('properties', records.properties, refusal, (property) => [['', FIELDS.property, property]]);
  checkEach('spots', records.spots, refusal, (spot) => [['', FIELDS.spot, spot]]);
  checkEach('places', records.places, refusal, (place) => [['', FIELDS.place, place]]);
  checkEach('routesWithTracks', records.routesWithTracks, refusal, ({ record, ...route }) => {
    const fields = route.kind === 'hike' ? FIELDS.hike : FIELDS.route;
    // Most of a route's fields are kept in its record, and named there (`record.distanceKm`).
    return [
      ['', fields, route],
      ['.record', fields, record ?? {}],
    ];
  });
  checkEach('chapters', records.chapters, refusal, (chapter) => [['', FIELDS.chapter, chapter]]);
  checkEach('photos', records.photos, refusal, (photo) => [['.meta', FIELDS.photo, photo.meta]]);
  checkEach('itineraries', records.itineraries, refusal, (itinerary) => [['', FIELDS.itinerary, itinerary]]);
  if (records.salesPage) checkFields('salesPage', FIELDS.salesPage, records.salesPage, refusal);
}
