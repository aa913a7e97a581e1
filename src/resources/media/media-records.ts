import type { Urls } from '../../core/operation.ts';
import type { CompactMedia, Media } from './media.schema.ts';
import type { MediaRecord } from './media.store.ts';
import { urlsOf } from './media-files.ts';

/** The photo as list_media and the uploads answer it: every metadata field, image URLs per size. */
export function publicMedia(record: MediaRecord, urls: Urls): Media {
  return {
    mediaId: record.mediaId,
    productId: record.guideId,
    spotId: record.spotId,
    spotKey: record.spotKey,
    order: record.order,
    width: record.width,
    height: record.height,
    bytes: record.bytes,
    urls: urlsOf(urls, record.files),
    ...record.meta,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The photo as list_media's compact view shows it. */
export function compactMedia(record: MediaRecord): CompactMedia {
  const { alt, caption, credit } = record.meta;
  const { mediaId, spotId, spotKey, order } = record;
  return { mediaId, spotId, spotKey, order, alt, caption, credit };
}

/** The credit rule, said where the assistant reads it: never invent one, never drop one. */
export function creditWarning(credit: string | null, suggested: string | undefined): string | undefined {
  if (credit !== null) return undefined;
  if (suggested !== undefined) {
    return (
      `The file names "${suggested}" as its author (EXIF); nothing was stored as the credit. Ask the creator ` +
      'whether to credit them, then send credit with update_media.'
    );
  }
  return 'This photo has no credit yet: ask the creator who took it and send credit with update_media; never guess one.';
}
