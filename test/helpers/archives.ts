import { createHash } from 'node:crypto';
import { unzipSync, zipSync } from 'fflate';

/** A guide archive taken apart by fflate's own reader: what any zip tool a creator has would see. */
export interface OpenedArchive {
  manifest: any;
  records: any;
  /** Every entry under files/, by its name in the archive. */
  files: Map<string, Buffer>;
  names: string[];
}

export function openArchive(zip: Uint8Array): OpenedArchive {
  const entries = unzipSync(zip);
  const text = (name: string) => Buffer.from(entries[name] as Uint8Array).toString('utf8');
  const files = new Map<string, Buffer>();
  for (const [name, bytes] of Object.entries(entries))
    if (name.startsWith('files/')) files.set(name, Buffer.from(bytes));
  return {
    manifest: JSON.parse(text('manifest.json')),
    records: JSON.parse(text('records.json')),
    files,
    names: Object.keys(entries),
  };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * An archive written by hand, with a manifest that tells the truth about what it holds unless
 * `manifest` says otherwise: the base of every hostile archive the tests send.
 */
export function makeArchive(
  records: unknown,
  files: ReadonlyMap<string, Uint8Array> = new Map(),
  manifest: (m: Record<string, any>) => Record<string, any> = (m) => m,
  extra: Record<string, Uint8Array> = {},
): Buffer {
  const recordBytes = Buffer.from(JSON.stringify(records));
  const base = {
    format: 'creator-api-guide-archive',
    formatVersion: 1,
    guideId: 'gd_AAAAAAAAAAAAAAAA',
    from: 'working',
    exportedAt: '2026-11-23T10:00:00.000Z',
    counts: {},
    records: { name: 'records.json', bytes: recordBytes.length, sha256: sha256(recordBytes) },
    files: [...files].map(([name, bytes]) => ({ name, bytes: bytes.length, sha256: sha256(bytes) })),
  };
  const entries: Record<string, Uint8Array> = {
    'records.json': recordBytes,
    ...Object.fromEntries(files),
    ...extra,
    'manifest.json': Buffer.from(JSON.stringify(manifest(base))),
  };
  return Buffer.from(zipSync(entries));
}

/** The records of a guide with nothing in it but its name: the smallest archive an import takes. */
export function emptyGuideRecords(name = 'Imported guide'): Record<string, any> {
  return {
    guide: {
      productId: 'gd_AAAAAAAAAAAAAAAA',
      name,
      slug: 'imported-guide',
      headline: null,
      purchaseButtonText: null,
      country: null,
      reviewsShown: true,
      storeTags: [],
      region: null,
      areas: [],
    },
    properties: [],
    spots: [],
    places: [],
    routesWithTracks: [],
    chapters: [],
    photos: [],
    itineraries: [],
    salesPage: null,
    storedImages: [],
  };
}

const NULL_SPOT_FIELDS = ['description', 'lat', 'lon', 'timeZone', 'status', 'schedule', 'hours', 'areaId'];
const UNCHECKED_SPOT_FIELDS = ['reviewNotes', 'factsCheckedOn', 'reviewBy'];

/** A spot record as the whole-guide reader reads one, with nothing in it but its key and name. */
export function spotRecord(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const nulls = Object.fromEntries([...NULL_SPOT_FIELDS, ...UNCHECKED_SPOT_FIELDS].map((f) => [f, null]));
  const lists = Object.fromEntries(['pins', 'mapLinks', 'links', 'fees', 'sources'].map((f) => [f, []]));
  const ids = { guideId: 'gd_AAAAAAAAAAAAAAAA', productId: 'gd_AAAAAAAAAAAAAAAA', spotId: 'sp_DDDDDDDDDDDDDDDD' };
  const times = { order: 1, createdAt: 0, updatedAt: 0 };
  return {
    ...ids,
    spotKey: 'lake',
    name: 'Lake',
    ...nulls,
    ...lists,
    archived: false,
    customValues: {},
    customNotes: {},
    ...times,
    ...fields,
  };
}

/** The smallest archive: one empty guide (import_guide's example sends it). */
export function minimalArchive(): Buffer {
  return makeArchive(emptyGuideRecords());
}
