import type { ExpressionBuilder } from 'kysely';
import { sql } from 'kysely';
import { newId } from '../../core/new-id.ts';
import type { PageRequest } from '../../core/paging.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import type { Database } from '../../db/tables.ts';
import { mediaKeysInJson } from '../media/index.ts';
import type { ReleaseAddressCache } from './release-addresses.ts';
import { type ReleaseKind, type RowHashes, releaseKinds, type SerializedSnapshot, type Snapshot } from './snapshot.ts';

/** A release as the store reads it back, without its snapshot. */
export interface ReleaseInfo {
  number: number;
  publishedAt: number;
  keyId: string | null;
  contentHash: string;
}

export interface Release extends ReleaseInfo {
  snapshot: Snapshot;
}

/** A release with the hash of each of its rows: what a publish compares the working copy with. */
export interface HashedRelease extends ReleaseInfo {
  rowHashes: RowHashes;
}

const INFO = ['number', 'created_at', 'key_id', 'content_hash'] as const;

/** What a release holds, by kind, counted as buyers could open it (areas, spots, photos…). */
export type ReleaseCounts = Record<string, number>;

const PLURALS: Record<ReleaseKind, string> = {
  area: 'areas',
  spot: 'spots',
  place: 'places',
  route: 'routes',
  chapter: 'chapters',
  photo: 'photos',
  itinerary: 'itineraries',
};

/** The counts of a release from its rows' hashes. */
export function countsOf(hashes: RowHashes): ReleaseCounts {
  return Object.fromEntries(
    releaseKinds.map((kind) => [PLURALS[kind], Object.keys(hashes.items?.[kind] ?? {}).length]),
  );
}

/** The working image a publish keeps beside its release (release-image.ts). */
export interface PackedImage {
  packed: Uint8Array;
  /** Photo files the image names beyond the snapshot's: kept while the release is, so a restore finds them. */
  fileKeys: readonly string[];
}

/** A release as list_releases reads it: who published it (as the history names writers), what it held. */
export interface ListedRelease extends ReleaseInfo {
  id: string;
  counts: ReleaseCounts;
  /** Whether it kept its working image (releases published before images were kept did not). */
  hasImage: boolean;
  keyName: string | null;
  keyHint: string | null;
  clientName: string | null;
}

export type FoundRelease = ListedRelease;

interface ListedRow {
  id: string;
  number: number;
  created_at: number;
  key_id: string | null;
  content_hash: string;
  counts: string | null;
  hashes: string | null;
  key_name: string | null;
  key_hint: string | null;
  client_name: string | null;
}

function listedOf(row: ListedRow): ListedRelease {
  return {
    ...infoOf(row),
    id: row.id,
    counts:
      row.counts !== null
        ? (JSON.parse(row.counts) as ReleaseCounts)
        : countsOf(JSON.parse(row.hashes ?? '{}') as RowHashes),
    hasImage: row.counts !== null,
    keyName: row.key_name,
    keyHint: row.key_hint,
    clientName: row.client_name,
  };
}

/** Rows of release_files written or asked for per statement: far under either dialect's parameter limit. */
const KEYS_PER_STATEMENT = 500;

function infoOf(row: { number: number; created_at: number; key_id: string | null; content_hash: string }): ReleaseInfo {
  return {
    number: Number(row.number),
    publishedAt: Number(row.created_at),
    keyId: row.key_id,
    contentHash: row.content_hash,
  };
}

/** Releases are written once and never changed, only deleted past RELEASES_KEPT; all SQL about them lives here. */
export class ReleasesStore extends ScopedStore {
  /** The app's guides at sales-page addresses (`Caches.releaseAddresses`). */
  private readonly addresses: ReleaseAddressCache;

  constructor(scope: StoreScope, addresses: ReleaseAddressCache) {
    super(scope);
    this.addresses = addresses;
  }

  /** The newest release of a guide, of these columns: the index on (guide_id, number) finds it. */
  private newest<C extends 'snapshot' | 'row_hashes' | 'sales_page'>(guideId: string, extra: readonly C[]) {
    return this.db
      .selectFrom('releases')
      .select([...INFO, ...extra])
      .where('guide_id', '=', guideId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The newest release of a guide without its content: enough to tell whether anything changed. */
  async latestInfo(guideId: string): Promise<ReleaseInfo | undefined> {
    const row = await this.newest(guideId, []);
    return row && infoOf(row);
  }

  /** The newest release with its rows' hashes, without reading its snapshot. */
  async latestHashes(guideId: string): Promise<HashedRelease | undefined> {
    const row = await this.newest(guideId, ['row_hashes']);
    return row && { ...infoOf(row), rowHashes: JSON.parse(row.row_hashes) as RowHashes };
  }

  /** What buyers see of a guide: its newest release, or undefined when it was never published. */
  async current(guideId: string): Promise<Release | undefined> {
    const row = await this.newest(guideId, ['snapshot']);
    return row && { ...infoOf(row), snapshot: JSON.parse(row.snapshot) as Snapshot };
  }

  /**
   * The sales page buyers see (the current release's), read from its own column without the
   * snapshot; null when the release has none or the guide was never published.
   */
  async currentSalesPage(guideId: string): Promise<unknown> {
    const row = await this.newest(guideId, ['sales_page']);
    return row?.sales_page ? JSON.parse(row.sales_page) : null;
  }

  /** Writes the next release; the caller holds the guide's lock, so the number cannot be taken twice. */
  async insert(
    guideId: string,
    snapshot: SerializedSnapshot,
    keyId: string | null,
    image?: PackedImage,
  ): Promise<ReleaseInfo> {
    // Only the number, which the index on (guide_id, number) holds: the row and its snapshot are not read.
    const latest = await this.db
      .selectFrom('releases')
      .select('number')
      .where('guide_id', '=', guideId)
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    const number = Number(latest?.number ?? 0) + 1;
    const now = this.clock.now();
    const id = newId('rel');
    await this.db
      .insertInto('releases')
      .values({
        id,
        guide_id: guideId,
        number,
        content_hash: snapshot.hash,
        // Stored as text from its UTF-8 as it is: no string of the whole is made (snapshot.ts).
        snapshot:
          this.dialect === 'postgres'
            ? sql<string>`convert_from(${snapshot.bytes}, 'UTF8')`
            : sql<string>`cast(${snapshot.bytes} as text)`,
        row_hashes: JSON.stringify(snapshot.rowHashes),
        sales_page: snapshot.salesPage === 'null' ? null : snapshot.salesPage,
        key_id: keyId,
        created_at: now,
      })
      .execute();
    if (image) {
      await this.db
        .insertInto('release_images')
        .values({ release_id: id, counts: JSON.stringify(countsOf(snapshot.rowHashes)), image: image.packed })
        .execute();
    }
    // The files' keys are ASCII, which Latin-1 reads as it is: the whole is not decoded as UTF-8.
    const named = mediaKeysInJson(snapshot.bytes.toString('latin1'));
    const keys = [...new Set([...named, ...(image?.fileKeys ?? [])])];
    for (let at = 0; at < keys.length; at += KEYS_PER_STATEMENT) {
      await this.db
        .insertInto('release_files')
        .values(
          keys.slice(at, at + KEYS_PER_STATEMENT).map((key) => ({ release_id: id, guide_id: guideId, blob_key: key })),
        )
        .execute();
    }
    return { number, publishedAt: now, keyId, contentHash: snapshot.hash };
  }

  /** The guide's releases with who published them and their counts, newest first. */
  private listed(guideId: string) {
    return (
      this.db
        .selectFrom('releases')
        .leftJoin('release_images', 'release_images.release_id', 'releases.id')
        .leftJoin('api_keys', 'api_keys.id', 'releases.key_id')
        .leftJoin('assistant_authorizations', 'assistant_authorizations.grant_id', 'releases.key_id')
        .select(['releases.id', 'releases.number', 'releases.created_at', 'releases.key_id', 'releases.content_hash'])
        .select(['release_images.counts', 'api_keys.name as key_name', 'api_keys.hint as key_hint'])
        .select('assistant_authorizations.client_name')
        // Only a release without an image is counted from its rows' hashes.
        .select(sql<string | null>`case when release_images.counts is null then releases.row_hashes end`.as('hashes'))
        .where('releases.guide_id', '=', guideId)
        .orderBy('releases.number', 'desc')
    );
  }

  /** A page of the guide's releases, newest first, after the release number the cursor holds. */
  async page(guideId: string, request: PageRequest): Promise<ListedRelease[]> {
    const after = request.after?.[0];
    let query = this.listed(guideId).limit(request.limit + 1);
    if (typeof after === 'number') query = query.where('releases.number', '<', after);
    return (await query.execute()).map(listedOf);
  }

  async count(guideId: string): Promise<number> {
    const row = await this.db
      .selectFrom('releases')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('guide_id', '=', guideId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The guide's release of this number. */
  async byNumber(guideId: string, number: number): Promise<FoundRelease | undefined> {
    const row = await this.listed(guideId).where('releases.number', '=', number).executeTakeFirst();
    return row && listedOf(row);
  }

  /**
   * Which of these release numbers of the guide kept their working image, so can be restored: what
   * the studio's list says beside list_releases's page, in one query.
   */
  async withImages(guideId: string, numbers: readonly number[]): Promise<Set<number>> {
    if (numbers.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('releases')
      .innerJoin('release_images', 'release_images.release_id', 'releases.id')
      .select('releases.number')
      .where('releases.guide_id', '=', guideId)
      .where('releases.number', 'in', numbers)
      .execute();
    return new Set(rows.map((row) => Number(row.number)));
  }

  /** The working image a release kept, packed; undefined for a release published before images were kept. */
  async packedImage(releaseId: string): Promise<Uint8Array | undefined> {
    const row = await this.db
      .selectFrom('release_images')
      .select('image')
      .where('release_id', '=', releaseId)
      .executeTakeFirst();
    return row?.image;
  }

  /** A release's buyers' snapshot and rows' hashes: what is known of a release that kept no image. */
  async snapshotOf(releaseId: string): Promise<{ snapshot: Snapshot; rowHashes: RowHashes } | undefined> {
    const row = await this.db
      .selectFrom('releases')
      .select(['snapshot', 'row_hashes'])
      .where('id', '=', releaseId)
      .executeTakeFirst();
    return (
      row && { snapshot: JSON.parse(row.snapshot) as Snapshot, rowHashes: JSON.parse(row.row_hashes) as RowHashes }
    );
  }

  /** Which of these photo files some release names: those stay while the release does. */
  async namedFiles(keys: readonly string[]): Promise<Set<string>> {
    const named = new Set<string>();
    for (let at = 0; at < keys.length; at += KEYS_PER_STATEMENT) {
      const rows = await this.db
        .selectFrom('release_files')
        .select('blob_key')
        .distinct()
        .where('blob_key', 'in', keys.slice(at, at + KEYS_PER_STATEMENT))
        .execute();
      for (const row of rows) named.add(row.blob_key);
    }
    return named;
  }

  /**
   * Deletes every guide's releases but its newest `kept` (RELEASES_KEPT), so never the live one,
   * with the files each names (release_files); the rows that hang on a release go with it by their
   * foreign keys. One transaction: a release never stands without the record of its files, which
   * keeps them from the sweep. Answers how many releases went.
   */
  async dropAllButNewest(kept: number): Promise<number> {
    if (!Number.isInteger(kept) || kept < 1)
      throw new Error(`releases kept must be a whole number from 1, not ${kept}`);
    return this.db.transaction().execute(async (trx) => {
      const beyond = (eb: ExpressionBuilder<Database, 'releases'>) =>
        eb(
          'releases.number',
          '<=',
          eb(
            eb
              .selectFrom('releases as newer')
              .select((n) => n.fn.max('newer.number').as('n'))
              .whereRef('newer.guide_id', '=', 'releases.guide_id'),
            '-',
            kept,
          ),
        );
      await trx
        .deleteFrom('release_files')
        .where('release_id', 'in', (eb) => eb.selectFrom('releases').select('releases.id').where(beyond))
        .execute();
      const result = await trx.deleteFrom('releases').where(beyond).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /**
   * The guide at a sales-page address (creator slug, guide slug): its id, its status and the
   * number of its newest release (null when never published). One indexed query, compiled once:
   * the buyers' page asks it on every request.
   */
  async atAddress(
    creatorSlug: string,
    guideSlug: string,
  ): Promise<{ guideId: string; status: string; releaseNumber: number | null } | undefined> {
    const [row] = await this.addresses.guideAt(this.db, creatorSlug, guideSlug);
    return (
      row && {
        guideId: row.id,
        status: row.status,
        releaseNumber: row.release_number === null ? null : Number(row.release_number),
      }
    );
  }
}
