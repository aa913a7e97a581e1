import { z } from 'zod';
import { UPLOAD_BATCH_PATH, UPLOAD_PATH } from '../../core/addresses.ts';
import { ApiError, refuse } from '../../core/errors.ts';
import { defineOperation, type OperationContext, type PrepareContext, type Upload } from '../../core/operation.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { mediaExamples } from './examples.ts';
import { type ProcessedUpload, processUpload } from './image-pipeline.ts';
import {
  applyMeta,
  emptyMeta,
  type MediaMeta,
  type MediaMetaInput,
  mediaMetaFields,
  spotIdSchema,
  storedImageSchema,
  uploadedMediaSchema,
} from './media.schema.ts';
import { deleteFiles, RenditionWriter, type StoredFiles, storeRenditions, urlsOf } from './media-files.ts';
import { creditWarning, publicMedia } from './media-records.ts';
import {
  checkUploadTarget,
  everyPhotoSpotSchema,
  MAX_BATCH_FILES,
  spotIdsSchema,
  spotsOfUpload,
  type UploadSpots,
} from './upload-spots.ts';

const MIB = 1024 * 1024;
export const MAX_IMAGE_BYTES = 6 * MIB;
export const MAX_BATCH_BYTES = 19 * MIB;

/** One photo read, checked and written to the blob store, waiting for its row. */
interface PreparedPhoto {
  processed: Omit<ProcessedUpload, 'files'>;
  files: StoredFiles;
}

interface PreparedUploads {
  photos: PreparedPhoto[];
}

const uploadsPolicy = {
  policy: 'uploads' as const,
  key: (_input: unknown, principal: { keyId: string }) => principal.keyId,
};

/**
 * One photo: each of its files is written as soon as it is encoded, while the others still encode;
 * when anything fails, every file written is deleted.
 */
async function preparePhoto(ctx: PrepareContext, upload: Upload): Promise<PreparedUploads> {
  const writer = new RenditionWriter(ctx.services.blobs);
  try {
    const { files, ...processed } = await processUpload(upload.bytes, upload.contentType, writer.keep);
    return { photos: [{ processed, files }] };
  } catch (err) {
    await writer.discard();
    throw err;
  }
}

/** Processes every file of a batch before anything is stored, then stores them all: one bad file refuses all. */
async function preparePhotos(ctx: PrepareContext, uploads: readonly Upload[]): Promise<PreparedUploads> {
  const results = await Promise.allSettled(uploads.map((u) => processUpload(u.bytes, u.contentType)));
  const failed = results.findIndex((r) => r.status === 'rejected');
  if (failed >= 0) {
    const reason = (results[failed] as PromiseRejectedResult).reason;
    if (!(reason instanceof ApiError) || reason.code !== 'invalid_request') throw reason;
    const name = uploads[failed]?.filename;
    const sentence = reason.message.replace(/^file: /, '');
    throw refuse(
      `files[${failed}]`,
      `${name ? `(${name}) ` : ''}${sentence} Nothing of this batch was stored; send it again without that file.`,
    );
  }
  const processed = results.map((r) => (r as PromiseFulfilledResult<ProcessedUpload>).value);
  const photos: PreparedPhoto[] = [];
  try {
    for (const { files, ...facts } of processed) {
      photos.push({ processed: facts, files: await storeRenditions(ctx.services.blobs, files) });
    }
  } catch (err) {
    await discardPhotos({ photos }, ctx);
    throw err;
  }
  return { photos };
}

async function discardPhotos(prepared: PreparedUploads, ctx: { services: PrepareContext['services'] }) {
  await Promise.all(prepared.photos.map((photo) => deleteFiles(ctx.services.blobs, photo.files)));
}

/** What the file said, under what the creator sent: a field sent (even null) wins over the file's. */
function metaOf(photo: PreparedPhoto, sent: MediaMetaInput): MediaMeta {
  const fromFile: MediaMetaInput = {};
  if (photo.processed.capturedOn) fromFile.capturedOn = photo.processed.capturedOn;
  if (photo.processed.takenAt) fromFile.takenAt = photo.processed.takenAt;
  return applyMeta(applyMeta(emptyMeta(), fromFile), sent);
}

async function insertPhotos(
  ctx: OperationContext,
  productId: string,
  target: UploadSpots,
  prepared: PreparedUploads,
  sent: MediaMetaInput,
) {
  const guide = await ctx.guide(productId);
  await checkUploadTarget(ctx, guide.id, target);
  const { media } = ctx.stores;
  const metas = prepared.photos.map((photo) => metaOf(photo, sent));
  const ids = await media.insertPhotos(
    guide.id,
    ctx.principal.creatorId,
    prepared.photos.map((photo, i) => ({
      spotId: target.spots[i] ?? null,
      width: photo.processed.width,
      height: photo.processed.height,
      bytes: photo.processed.bytes,
      files: photo.files,
      meta: metas[i] as MediaMeta,
    })),
  );
  return Promise.all(
    ids.map(async (id, i) => {
      const suggested = prepared.photos[i]?.processed.suggestedCredit;
      const warning = creditWarning(metas[i]?.credit ?? null, suggested);
      if (warning) ctx.warn(warning);
      return {
        ...publicMedia(await media.require(id), ctx.urls),
        ...(suggested !== undefined && { suggestedCredit: suggested }),
      };
    }),
  );
}

const targetSchema = z
  .enum(['guide', 'blob'])
  .default('guide')
  .describe(
    'guide: a photo of the guide, listed by list_media. blob: a stored image that answers a storageId, for chapter covers, intro photos and the author photo; not listed',
  );

const ACCEPTED = 'JPEG, PNG, WebP, AVIF or TIFF (not HEIC), at most 6 MB';

export const uploadMedia = defineOperation({
  name: 'upload_media',
  title: 'Upload a photo',
  method: 'POST',
  path: UPLOAD_PATH,
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  successStatus: 201,
  restOnly: true,
  body: { kind: 'image', maxBytes: MAX_IMAGE_BYTES },
  rateLimit: uploadsPolicy,
  description:
    `Uploads one photo (${ACCEPTED}) as raw bytes with its image content type and productId in the query, or as ` +
    'multipart/form-data with one file part and productId as a query parameter or form field. Metadata fields of ' +
    'update_media may come along (query or form fields). The capture date and a GPS fix are read from the file, ' +
    "then every metadata block is stripped. A credit is stored only when sent: the answer reports the file's own " +
    'author as suggestedCredit, for the creator to confirm.',
  input: z.strictObject({
    productId: productIdSchema,
    target: targetSchema,
    spotId: spotIdSchema.optional().describe('Attach the photo to this spot of the guide'),
    ...mediaMetaFields,
  }),
  // One object for both targets: the photo's row (target=guide), or storageId and its image fields (target=blob).
  output: uploadedMediaSchema.partial().extend(storedImageSchema.partial().shape),
  example: mediaExamples.upload_media,
  location: (_photo, input) => `/guides/${input.productId}/media`,
  async prepare(input, ctx): Promise<PreparedUploads> {
    const [upload] = ctx.uploads;
    if (!upload) {
      throw refuse(
        'file',
        `send the photo as the request body with its image content type, or as a multipart file part (${ACCEPTED}).`,
      );
    }
    if (input.target === 'blob') {
      const extra = Object.keys(input).filter((k) => k !== 'productId' && k !== 'target');
      if (extra.length > 0) {
        throw refuse(
          extra[0] as string,
          'a stored image (target=blob) takes no spot or metadata: its credit goes where it is used.',
        );
      }
    }
    await checkUploadTarget(ctx, input.productId, spotsOfUpload(input, 1));
    return preparePhoto(ctx, upload);
  },
  discard: discardPhotos,
  async handler({ productId, target, spotId, ...sent }, ctx, prepared) {
    if (target === 'guide') {
      const [row] = await insertPhotos(ctx, productId, spotsOfUpload({ spotId }, 1), prepared, sent);
      return row as Record<string, unknown>;
    }
    const guide = await ctx.guide(productId);
    const photo = prepared.photos[0] as PreparedPhoto;
    const storageId = await ctx.stores.media.insertBlob(guide.id, ctx.principal.creatorId, {
      width: photo.processed.width,
      height: photo.processed.height,
      bytes: photo.processed.bytes,
      files: photo.files,
    });
    const suggested = photo.processed.suggestedCredit;
    return {
      storageId,
      productId: guide.id,
      width: photo.processed.width,
      height: photo.processed.height,
      bytes: photo.processed.bytes,
      urls: urlsOf(ctx.urls, photo.files),
      ...(suggested !== undefined && { suggestedCredit: suggested }),
    };
  },
});

export const uploadMediaBatch = defineOperation({
  name: 'upload_media_batch',
  title: 'Upload several photos',
  method: 'POST',
  path: UPLOAD_BATCH_PATH,
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  successStatus: 201,
  restOnly: true,
  body: { kind: 'multipart', maxBytes: MAX_BATCH_BYTES, maxFiles: MAX_BATCH_FILES, maxFileBytes: MAX_IMAGE_BYTES },
  rateLimit: uploadsPolicy,
  description:
    `Uploads up to ${MAX_BATCH_FILES} photos of a guide (${ACCEPTED} each, 19 MB in all) as multipart/form-data, one ` +
    'file part each, in the order they should appear; productId as a query parameter or form field. All or nothing: ' +
    'every file is checked and processed before anything is stored, and one bad file refuses the batch naming its ' +
    'index and file name. spotId puts every photo on one spot; spotIds gives each file its own (one entry per file, ' +
    'in file order). credit, creditUrl, licence and sourcePageUrl, when sent, apply to every photo.',
  input: z.strictObject({
    productId: productIdSchema,
    spotId: everyPhotoSpotSchema,
    spotIds: spotIdsSchema.optional(),
    credit: mediaMetaFields.credit,
    creditUrl: mediaMetaFields.creditUrl,
    licence: mediaMetaFields.licence,
    sourcePageUrl: mediaMetaFields.sourcePageUrl,
  }),
  output: z.object({ productId: z.string(), count: z.number(), media: z.array(uploadedMediaSchema) }),
  example: mediaExamples.upload_media_batch,
  location: (_photos, input) => `/guides/${input.productId}/media`,
  async prepare(input, ctx): Promise<PreparedUploads> {
    if (ctx.uploads.length === 0) {
      throw refuse('files', `send 1 to ${MAX_BATCH_FILES} photos as multipart file parts (${ACCEPTED} each).`);
    }
    await checkUploadTarget(ctx, input.productId, spotsOfUpload(input, ctx.uploads.length));
    return preparePhotos(ctx, ctx.uploads);
  },
  discard: discardPhotos,
  async handler({ productId, spotId, spotIds, ...sent }, ctx, prepared) {
    const target = spotsOfUpload({ spotId, spotIds }, prepared.photos.length);
    const media = await insertPhotos(ctx, productId, target, prepared, sent);
    return { productId, count: media.length, media };
  },
});
