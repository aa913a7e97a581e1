import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { type Bbox, bboxContains } from '../../shared/geo.ts';
import { slugify } from '../../shared/text.ts';
import type { Position } from '../../shared/tracks/track.schema.ts';
import { type SpotWriteItem, spotFieldsSchema } from '../spots/index.ts';
import type { ImportedFile, ImportedLine, ImportedPoint } from './imported-file.ts';
import { FIXED_FIELDS } from './writers/spot-properties.ts';

/** How the file's features become the guide's records (import_spots' options). */
export interface ImportOptions {
  keyFrom: 'name' | 'id-property';
  linesAs: 'hike' | 'route';
  areaId: string | undefined;
  /** The guide's map region, when it has a bbox: places outside it are skipped. */
  bbox: Bbox | undefined;
  /** Folders become collections: a spot keeps its folder's name, checked as a collection's. */
  byFolder: boolean;
}

/** A place ready to write, with where it came from. */
export interface SpotCandidate {
  kind: 'spot';
  where: string;
  item: SpotWriteItem & { name: string };
  /** The collection it joins by its folder, when folders are asked to be collections. */
  folder?: string;
}

/** A line ready to measure and write: matched on its name among the guide's records of its kind. */
export interface LineCandidate {
  kind: 'hike' | 'route';
  where: string;
  name: string;
  description: string | undefined;
  points: Position[];
}

/** A feature passed over, and why, in words a creator can act on. */
export interface Skip {
  kind: 'spot' | 'hike' | 'route' | 'feature';
  where: string;
  name?: string;
  reason: string;
}

export interface Candidates {
  spots: SpotCandidate[];
  lines: LineCandidate[];
  skipped: Skip[];
}

/** Coordinates as stored: 7 decimals (about 1 cm), nothing else changed. */
const round7 = (value: number) => Math.round(value * 1e7) / 1e7;

/**
 * A spot key derived from text the same way every time, so the same file imports onto the same
 * spots: the slug, or for text with no Latin letter or digit (a name in Japanese) a short hash of it.
 */
export function derivedKey(text: string): string {
  const slug = slugify(text, '');
  return slug !== '' ? slug : `spot-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}

/** The first refusal of a field's own schema, as a reason ("name: too long…"), or undefined when it takes the value. */
function refusal(field: string, schema: z.ZodType, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : `${field} is refused: ${parsed.error.issues[0]?.message ?? 'invalid'}.`;
}

/**
 * Not facts about the place: what a map app keeps for drawing or a GPS for itself (a waypoint's
 * `type` too, where the export writes the area), and the fields this service's own export writes
 * as structure (so an export imported again reads as it was).
 */
const NOT_FACTS = /^(gx_|style|marker-|stroke|fill|icon|property:|type$|sym$|ele$|time$|fix$|sat$|areaKind$)/i;
const isFact = (key: string) => !NOT_FACTS.test(key) && !FIXED_FIELDS.has(key);

/**
 * The description a spot gets: the file's own, then its other facts (ExtendedData, a My Maps
 * description table, other columns), a "Name: value" line each, so nothing the creator wrote is
 * lost. They are not mapped onto the guide's custom properties: those are typed, and which column
 * is which property is the creator's choice, not a guess.
 */
function describedWithFacts(point: ImportedPoint): string | undefined {
  const facts = Object.entries(point.properties)
    .filter(([key, value]) => isFact(key) && value !== null && String(value).trim() !== '')
    .map(([key, value]) => `${key}: ${String(value).trim()}`);
  if (facts.length === 0) return point.description;
  return [point.description, facts.join('\n')].filter((part) => part !== undefined && part !== '').join('\n\n');
}

function spotCandidate(point: ImportedPoint, options: ImportOptions, keys: Map<string, string>): SpotCandidate | Skip {
  const skip = (reason: string): Skip => ({
    kind: 'spot',
    where: point.where,
    ...(point.name && { name: point.name }),
    reason,
  });
  if (point.name === undefined) return skip('no name: a spot needs one, and none is made up; name it in the file.');
  const folder = options.byFolder ? point.folder : undefined;
  const description = describedWithFacts(point);
  const fieldProblem =
    refusal('name', spotFieldsSchema.shape.name, point.name) ??
    (folder === undefined ? undefined : refusal('folder', spotFieldsSchema.shape.name, folder)) ??
    (description === undefined ? undefined : refusal('description', spotFieldsSchema.shape.description, description));
  if (fieldProblem) return skip(`over a limit: ${fieldProblem}`);
  const keySource = options.keyFrom === 'name' ? point.name : point.sourceId;
  if (keySource === undefined) return skip('no id property, and keyFrom is id-property: give it an id in the file.');
  const spotKey = derivedKey(keySource);
  const holder = keys.get(spotKey);
  if (holder !== undefined) return skip(`duplicate key "${spotKey}": ${holder} has it already (see keyFrom).`);
  keys.set(spotKey, point.where);
  if (point.lat === undefined || point.lon === undefined) {
    return skip('no position: the file gives none, and none is guessed; add its coordinates to the file.');
  }
  const lat = round7(point.lat);
  const lon = round7(point.lon);
  if (options.bbox && !bboxContains(options.bbox, lat, lon)) {
    return skip("outside the guide's region: its bbox (set_guide_region) does not hold this position.");
  }
  return {
    kind: 'spot',
    where: point.where,
    ...(folder !== undefined && { folder }),
    item: {
      spotKey,
      name: point.name,
      lat,
      lon,
      ...(description !== undefined && { description }),
      ...(options.areaId !== undefined && { areaId: options.areaId }),
    },
  };
}

function lineCandidate(line: ImportedLine, options: ImportOptions, names: Map<string, string>): LineCandidate | Skip {
  const kind = options.linesAs;
  const skip = (reason: string): Skip => ({ kind, where: line.where, ...(line.name && { name: line.name }), reason });
  if (line.name === undefined) return skip(`no name: a ${kind} needs one, and none is made up; name it in the file.`);
  const fieldProblem = refusal('name', spotFieldsSchema.shape.name, line.name);
  if (fieldProblem) return skip(`over a limit: ${fieldProblem}`);
  const holder = names.get(line.name);
  if (holder !== undefined) return skip(`duplicate key: ${holder} has the same name, which is what lines match on.`);
  names.set(line.name, line.where);
  if (line.points.length < 2) return skip('a line needs at least two points.');
  // One arity for the whole line: elevations only when every point has one.
  const withElevation = line.points.every((p) => p.length >= 3);
  const points = line.points.map(([lon, lat, ele]) =>
    withElevation
      ? [round7(lon as number), round7(lat as number), ele as number]
      : [round7(lon as number), round7(lat as number)],
  );
  return { kind, where: line.where, name: line.name, description: line.description, points };
}

/**
 * What each feature of a file would become, before the guide is read: places with their keys and
 * fields, lines with their names, and what is skipped and why. Keys are derived from the file
 * alone, so the same file always gives the same keys.
 */
export function candidatesOf(file: ImportedFile, options: ImportOptions): Candidates {
  const out: Candidates = {
    spots: [],
    lines: [],
    skipped: file.skipped.map((s) => ({ kind: 'feature' as const, ...s })),
  };
  const keys = new Map<string, string>();
  const names = new Map<string, string>();
  for (const feature of file.features) {
    const candidate =
      feature.kind === 'point' ? spotCandidate(feature, options, keys) : lineCandidate(feature, options, names);
    if ('reason' in candidate) out.skipped.push(candidate);
    else if (candidate.kind === 'spot') out.spots.push(candidate);
    else out.lines.push(candidate);
  }
  return out;
}
