import type { ExpressionBuilder, Selectable } from 'kysely';
import { notFound } from '../../core/errors.ts';
import type { OwnedRecords } from '../../core/guide-records.ts';
import { newId } from '../../core/new-id.ts';
import type { PageRequest } from '../../core/paging.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import { keysetPage } from '../../db/keyset.ts';
import type { Database } from '../../db/tables.ts';
import type { MediaMeta } from './media.schema.ts';
import type { MediaTable } from './media.tables.ts';
import type { StoredFiles } from './media-files.ts';
import type { ServedFileCache } from './served-files.ts';

/** The photos' order: their position, then upload, then the id, which is unique. */
export const MEDIA_ORDER = ['media.position', 'media.created_at', 'media.id'] as const;

/** A photo as the store reads it back; its URLs are made from `files` by whoever answers. */
export interface MediaRecord {
  mediaId: string;
  guideId: string;
  spotId: string | null;
  spotKey: string | null;
  order: number;
  width: number;
  height: number;
  bytes: number;
  files: StoredFiles;
  meta: MediaMeta;
  createdAt: number;
  updatedAt: number;
}

/** A stored image (target=blob) as chapters see it: whose it is and its files. */
export interface StoredImage {
  storageId: string;
  guideId: string;
  width: number;
  height: number;
  files: StoredFiles;
}

export interface NewMedia {
  spotId: string | null;
  width: number;
  height: number;
  bytes: number;
  files: StoredFiles;
  meta: MediaMeta;
}

type Row = Selectable<MediaTable> & { spot_key: string | null };

function toRecord(row: Row): MediaRecord {
  return {
    mediaId: row.id,
    guideId: row.guide_id,
    spotId: row.spot_id,
    spotKey: row.spot_key,
    order: Number(row.position),
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    files: JSON.parse(row.files) as StoredFiles,
    meta: JSON.parse(row.meta) as MediaMeta,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Photos and stored images. All SQL about them lives here. */
export class MediaStore extends ScopedStore implements OwnedRecords<MediaRecord> {
  /** The app's answers of whether /media serves a file (`Caches.servedFiles`). */
  private readonly served: ServedFileCache;

  constructor(scope: StoreScope, served: ServedFileCache) {
    super(scope);
    this.served = served;
  }

  /**
   * Whether `/media` serves the file at this key and served path: the live release, a working copy
   * or a thumbnail names it (a file kept only for an older release or the history is not served).
   */
  isServed(key: string, path: string): Promise<boolean> {
    return this.served.isServed(this.db, key, path);
  }

  private selectMedia() {
    return this.db
      .selectFrom('media')
      .leftJoin('spots', 'spots.id', 'media.spot_id')
      .selectAll('media')
      .select('spots.spot_key as spot_key');
  }

  /** Whether the creator owns the guide: an upload checks before it spends time on the photo. */
  async guideOwned(creatorId: string, guideId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('guides')
      .select('id')
      .where('id', '=', guideId)
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The spot if it is one of the guide's (archived ones included), else undefined. */
  async spotOf(guideId: string, spotId: string): Promise<{ archived: boolean } | undefined> {
    const row = await this.db
      .selectFrom('spots')
      .select('archived')
      .where('id', '=', spotId)
      .where('guide_id', '=', guideId)
      .executeTakeFirst();
    return row && { archived: Boolean(row.archived) };
  }

  /** The id of the guide's spot with this key, if any: a refusal can name the id a key was sent for. */
  async spotIdOfKey(guideId: string, spotKey: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('spots')
      .select('id')
      .where('guide_id', '=', guideId)
      .where('spot_key', '=', spotKey)
      .executeTakeFirst();
    return row?.id;
  }

  /** The caller's photo's guide (see requireOwned), for openOwned. */
  async guideOfOwned(creatorId: string, mediaId: string): Promise<string> {
    return (await this.requireOwned(creatorId, mediaId)).guideId;
  }

  /** The caller's photo, or not_found alike for a missing one and another creator's. */
  async requireOwned(creatorId: string, mediaId: string): Promise<MediaRecord> {
    const row = await this.selectMedia()
      .where('media.id', '=', mediaId)
      .where('media.kind', '=', 'photo')
      .where('media.creator_id', '=', creatorId)
      .executeTakeFirst();
    if (!row) throw notFound('photo', mediaId);
    return toRecord(row);
  }

  /** A photo of this guide, or undefined. */
  async photoOf(guideId: string, mediaId: string): Promise<MediaRecord | undefined> {
    const row = await this.selectMedia()
      .where('media.id', '=', mediaId)
      .where('media.kind', '=', 'photo')
      .where('media.guide_id', '=', guideId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Which of these mediaIds are photos of this guide now (the rest were deleted or never were). */
  async photoIdsAmong(guideId: string, mediaIds: readonly string[]): Promise<Set<string>> {
    if (mediaIds.length === 0) return new Set();
    const rows = await this.photosOf(guideId, undefined).select('media.id').where('media.id', 'in', mediaIds).execute();
    return new Set(rows.map((row) => row.id));
  }

  /**
   * A stored image (upload with target=blob) of this creator, or undefined: chapters check a
   * storageId with it before they name it.
   */
  async blobOf(creatorId: string, storageId: string): Promise<StoredImage | undefined> {
    const row = await this.db
      .selectFrom('media')
      .selectAll()
      .where('id', '=', storageId)
      .where('kind', '=', 'blob')
      .where('creator_id', '=', creatorId)
      .executeTakeFirst();
    return (
      row && {
        storageId: row.id,
        guideId: row.guide_id,
        width: row.width,
        height: row.height,
        files: JSON.parse(row.files) as StoredFiles,
      }
    );
  }

  /** The guide's photos in their order; one spot's when given. */
  async listForGuide(guideId: string, spotId?: string): Promise<MediaRecord[]> {
    let query = this.selectMedia().where('media.guide_id', '=', guideId).where('media.kind', '=', 'photo');
    if (spotId !== undefined) query = query.where('media.spot_id', '=', spotId);
    const rows = await query.orderBy('media.position').orderBy('media.created_at').orderBy('media.id').execute();
    return rows.map(toRecord);
  }

  private photosOf(guideId: string, spotId: string | undefined) {
    const query = this.db.selectFrom('media').where('media.guide_id', '=', guideId).where('media.kind', '=', 'photo');
    return spotId === undefined ? query : query.where('media.spot_id', '=', spotId);
  }

  /** One page of the guide's photos in their order (one spot's when given), by keyset. */
  async page(guideId: string, spotId: string | undefined, request: PageRequest): Promise<MediaRecord[]> {
    const query = this.photosOf(guideId, spotId)
      .leftJoin('spots', 'spots.id', 'media.spot_id')
      .selectAll('media')
      .select('spots.spot_key as spot_key');
    const rows = await keysetPage(query, MEDIA_ORDER, request).execute();
    return rows.map(toRecord);
  }

  async count(guideId: string, spotId: string | undefined): Promise<number> {
    const row = await this.photosOf(guideId, spotId)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Photos per guide (stored images are not photos of the guide). */
  async countPhotos(guideIds: readonly string[]): Promise<Map<string, number>> {
    if (guideIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('media')
      .select(['guide_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('guide_id', 'in', guideIds)
      .where('kind', '=', 'photo')
      .groupBy('guide_id')
      .execute();
    return new Map(rows.map((r) => [r.guide_id, Number(r.n)]));
  }

  /** The whole order after the guide's last photo: where a new or moved photo goes. */
  private async nextPosition(guideId: string): Promise<number> {
    const last = await this.db
      .selectFrom('media')
      .select((eb) => eb.fn.max('position').as('last'))
      .where('guide_id', '=', guideId)
      .where('kind', '=', 'photo')
      .executeTakeFirst();
    return last?.last === null || last?.last === undefined ? 1 : Math.floor(Number(last.last)) + 1;
  }

  /** Adds photos after the guide's last one, in the order given; their ids. */
  async insertPhotos(guideId: string, creatorId: string, photos: readonly NewMedia[]): Promise<string[]> {
    const ids = photos.map(() => newId('med'));
    if (photos.length === 0) return ids;
    const start = await this.nextPosition(guideId);
    const now = this.clock.now();
    await this.db
      .insertInto('media')
      .values(
        photos.map((photo, i) => ({
          id: ids[i] as string,
          guide_id: guideId,
          creator_id: creatorId,
          kind: 'photo' as const,
          spot_id: photo.spotId,
          position: start + i,
          width: photo.width,
          height: photo.height,
          bytes: photo.bytes,
          files: JSON.stringify(photo.files),
          meta: JSON.stringify(photo.meta),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    return ids;
  }

  /** Puts the photo on another spot of its guide (null: on none), after the guide's last photo. */
  async moveToSpot(photo: MediaRecord, spotId: string | null): Promise<void> {
    const position = await this.nextPosition(photo.guideId);
    await this.db
      .updateTable('media')
      .set({ spot_id: spotId, position, updated_at: this.nextUpdatedAt() })
      .where('id', '=', photo.mediaId)
      .execute();
  }

  async insertBlob(guideId: string, creatorId: string, image: Omit<NewMedia, 'spotId' | 'meta'>): Promise<string> {
    const id = newId('sto');
    const now = this.clock.now();
    await this.db
      .insertInto('media')
      .values({
        id,
        guide_id: guideId,
        creator_id: creatorId,
        kind: 'blob',
        spot_id: null,
        position: 0,
        width: image.width,
        height: image.height,
        bytes: image.bytes,
        files: JSON.stringify(image.files),
        meta: '{}',
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  /** The photo, or not_found. */
  async require(mediaId: string): Promise<MediaRecord> {
    const row = await this.selectMedia().where('media.id', '=', mediaId).executeTakeFirst();
    if (!row) throw notFound('photo', mediaId);
    return toRecord(row);
  }

  async updateMeta(photo: MediaRecord, meta: MediaMeta): Promise<void> {
    await this.db
      .updateTable('media')
      .set({ meta: JSON.stringify(meta), updated_at: this.nextUpdatedAt() })
      .where('id', '=', photo.mediaId)
      .execute();
  }

  async setOrder(photo: MediaRecord, order: number): Promise<void> {
    await this.db
      .updateTable('media')
      .set({ position: order, updated_at: this.nextUpdatedAt() })
      .where('id', '=', photo.mediaId)
      .execute();
  }

  async delete(mediaId: string): Promise<void> {
    await this.db.deleteFrom('media').where('id', '=', mediaId).execute();
  }
}

/** The guide's photo count, as a subquery of a query over `guides` (see countPhotos). */
export function photoCountOfGuide(eb: ExpressionBuilder<Database, 'guides'>) {
  return eb
    .selectFrom('media')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('media.guide_id', '=', 'guides.id')
    .where('media.kind', '=', 'photo');
}
