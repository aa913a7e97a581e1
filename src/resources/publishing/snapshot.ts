import { createHash, hash } from 'node:crypto';
import { urlsOf } from '../media/index.ts';
import type { GuideContents } from './guide-contents.ts';

/** The kinds of rows a release holds, each by id. */
export const releaseKinds = ['area', 'spot', 'place', 'route', 'chapter', 'photo', 'itinerary'] as const;
export type ReleaseKind = (typeof releaseKinds)[number];

/**
 * What buyers see of a guide at one publish: the guide's own fields, its sales page, and every
 * row buyers can open, by kind and id. Reviewer-only fields never enter it.
 */
export interface Snapshot {
  /** The guide record's content fields, and `creatorName` (absent from releases made before it was kept). */
  guide: Record<string, unknown>;
  salesPage: unknown;
  items: Record<ReleaseKind, Record<string, unknown>>;
}

/**
 * Fields buyers never see: research (sources, notes for reviewers, the creator's own notes),
 * review dates, provenance of a photo, and bookkeeping that changes without the content changing.
 */
const REVIEWER_ONLY = new Set([
  'sources',
  'reviewNotes',
  'customNotes',
  'reviewBy',
  'sourcePageUrl',
  'locationVerifiedBy',
  'guideId',
  'productId',
  'createdAt',
  'updatedAt',
]);

/** The guide record's studio-side fields: its state in the studio, not its content. */
const GUIDE_STUDIO_ONLY = [
  'status',
  'visibleOnStore',
  'storeReviewStatus',
  'storeReviewNote',
  'publishedAt',
  'lastApiWriteAt',
  'dashboardUrl',
  'salesPageUrl',
  'spotCount',
  'areas',
] as const;

/** Leaves reviewer-only fields out at every depth while a row is written out, without copying it first. */
const buyerFields = (key: string, value: unknown) => (REVIEWER_ONLY.has(key) ? undefined : value);

function byId<T>(rows: readonly T[], id: (row: T) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) out[id(row)] = row;
  return out;
}

/**
 * The rows of a snapshot as read, by kind and id: a Snapshot once serializeSnapshot has left the
 * reviewer-only fields out of them (rows are not copied to drop those fields first).
 */
export function snapshotRows(c: GuideContents): Snapshot {
  const guide = { ...c.guide } as Record<string, unknown>;
  for (const field of GUIDE_STUDIO_ONLY) delete guide[field];
  // Who made the guide, as buyers of this release see it: a later rename reaches them with the next publish.
  guide.creatorName = c.creatorName;
  const liveSpots = c.spots.filter((s) => !s.archived);
  const live = new Set(liveSpots.map((s) => s.spotId));
  // A photo of an archived spot is not shown; photos of the guide itself are.
  const photos = c.photos
    .filter((p) => p.spotId === null || live.has(p.spotId))
    .map(({ files, bytes: _bytes, ...p }) => ({ ...p, urls: urlsOf({ publicUrl: '' }, files) }));
  return {
    guide,
    salesPage: c.salesPage ?? null,
    items: {
      area: byId(c.guide.areas, (a) => a.id),
      spot: byId(liveSpots, (s) => s.spotId),
      place: byId(c.places, (p) => p.facilityId),
      route: byId(c.routes, (r) => r.id),
      chapter: byId(c.chapters, (ch) => ch.id),
      photo: byId(photos, (p) => p.mediaId),
      // Archived itineraries and trips with no stop stay hidden from buyers.
      itinerary: byId(
        c.itineraries.filter((it) => !it.archived && it.days.some((day) => day.stops.length > 0)),
        (it) => it.id,
      ),
    },
  };
}

/** Each row's hash by kind and id, as a release keeps them: a publish compares these, not rows. */
export interface RowHashes {
  guide: string;
  /** null when the release has no sales page. */
  salesPage: string | null;
  items: Record<ReleaseKind, Record<string, string>>;
}

/** A snapshot written out once: its text, the text's hash, each row's hash and the sales page's JSON. */
export interface SerializedSnapshot {
  /**
   * Exactly `JSON.stringify(snapshot)` as UTF-8, built from the rows' own JSON: bytes, not a string,
   * so that it is never copied whole again before it is stored (see serializeSnapshot).
   */
  bytes: Buffer;
  /** sha256 of the text: the same content always gives the same hash. */
  hash: string;
  rowHashes: RowHashes;
  /** The sales page's JSON, `null` when there is none. */
  salesPage: string;
}

const rowHash = (json: Buffer) => hash('sha256', json, 'base64url');

/**
 * Writes each row's JSON once, leaving reviewer-only fields out, and uses it three times: in the
 * snapshot's text, for the row's hash and, through the hashes, for the diff against the next
 * publish. The text is written from those pieces in the order `JSON.stringify` writes the whole
 * (object keys in their own order), so it and the release's hash are what stringifying the buyers'
 * Snapshot gives. Takes snapshotRows or a Snapshot read back (which has nothing left to leave out).
 * Each piece is made UTF-8 once and hashed into the whole as it is written: a 4,000-spot text
 * (9.7 MB) joined as a string was copied, made UTF-8 for its hash, and again to be stored, each
 * pass over more than the processor's cache holds.
 */
export function serializeSnapshot(rows: Snapshot): SerializedSnapshot {
  const whole = createHash('sha256');
  const pieces: Buffer[] = [];
  const write = (piece: Buffer) => {
    whole.update(piece);
    pieces.push(piece);
  };
  const guide = JSON.stringify(rows.guide, buyerFields);
  const salesPage = JSON.stringify(rows.salesPage, buyerFields);
  const items = {} as RowHashes['items'];
  write(Buffer.from(`{"guide":${guide},"salesPage":${salesPage},"items":{`));
  let firstKind = true;
  for (const [kind, byKind] of Object.entries(rows.items) as [ReleaseKind, Record<string, unknown>][]) {
    const hashes: Record<string, string> = {};
    write(Buffer.from(`${firstKind ? '' : ','}${JSON.stringify(kind)}:{`));
    let first = true;
    for (const id of Object.keys(byKind)) {
      const json = Buffer.from(JSON.stringify(byKind[id], buyerFields));
      hashes[id] = rowHash(json);
      write(Buffer.from(`${first ? '' : ','}${JSON.stringify(id)}:`));
      write(json);
      first = false;
    }
    write(Buffer.from('}'));
    items[kind] = hashes;
    firstKind = false;
  }
  write(Buffer.from('}}'));
  return {
    bytes: Buffer.concat(pieces),
    hash: whole.digest('hex'),
    rowHashes: {
      guide: rowHash(Buffer.from(guide)),
      salesPage: salesPage === 'null' ? null : rowHash(Buffer.from(salesPage)),
      items,
    },
    salesPage,
  };
}

export interface KindChanges {
  kind: 'guide' | 'salesPage' | ReleaseKind;
  added: number;
  changed: number;
  removed: number;
}

/** What differs between a release and the working copy, by kind; kinds with no change left out. */
export function diffRowHashes(before: RowHashes | undefined, after: RowHashes): KindChanges[] {
  const changes: KindChanges[] = [];
  const single = (kind: 'guide' | 'salesPage', a: string | null | undefined, b: string | null) => {
    const had = a !== undefined && a !== null;
    const has = b !== null;
    if ((!had && !has) || a === b) return;
    changes.push({ kind, added: !had && has ? 1 : 0, changed: had && has ? 1 : 0, removed: had && !has ? 1 : 0 });
  };
  single('guide', before?.guide, after.guide);
  single('salesPage', before?.salesPage, after.salesPage);
  for (const kind of releaseKinds) {
    const old = before?.items[kind] ?? {};
    const now = after.items[kind];
    let added = 0;
    let changed = 0;
    let removed = 0;
    for (const [id, hashNow] of Object.entries(now)) {
      if (!Object.hasOwn(old, id)) added++;
      else if (old[id] !== hashNow) changed++;
    }
    for (const id of Object.keys(old)) if (!Object.hasOwn(now, id)) removed++;
    if (added + changed + removed > 0) changes.push({ kind, added, changed, removed });
  }
  return changes;
}
