import { z } from 'zod';
import { refuse } from '../../core/errors.ts';
import { defineOperation } from '../../core/operation.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { filesExamples } from './examples.ts';
import { isZip, uploadedText } from './file-content.ts';
import { SINCE_FILES } from './files-since.ts';

const MIB = 1024 * 1024;
/** A map file too big for a JSON body: KMZ with its images, a season of GPX tracks. */
export const MAX_IMPORT_FILE_BYTES = 10 * MIB;

export const uploadImportFile = defineOperation({
  name: 'upload_import_file',
  title: 'Upload a file to import',
  method: 'POST',
  path: '/guides/{productId}/import/upload',
  scope: 'write',
  stability: 'beta',
  since: SINCE_FILES,
  restOnly: true,
  body: { kind: 'file', maxBytes: MAX_IMPORT_FILE_BYTES },
  rateLimit: { policy: 'uploads', key: (_input, principal) => principal.keyId },
  description:
    'Keeps a map file (KMZ, or GeoJSON, KML, GPX or CSV over the 2 MB JSON body; at most 10 MB) for an hour and ' +
    'answers its uploadId for import_spots. Send the file as the raw body with its own content type (not ' +
    'application/json: use application/geo+json, text/csv, application/octet-stream…) or as multipart/form-data ' +
    'with one file part. Text must be UTF-8. Nothing is imported until import_spots.',
  input: z.strictObject({ productId: productIdSchema }),
  output: z.object({
    uploadId: z.string().describe('Send it to import_spots as uploadId, with the format'),
    productId: z.string(),
    filename: z.string().nullable(),
    bytes: z.number().int(),
    zip: z.boolean().describe('true for a KMZ (a zip archive): import it as format kml'),
    expiresAt: z.number().describe('Unix ms; the file is gone after it'),
  }),
  example: filesExamples.upload_import_file,
  async prepare(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const [upload] = ctx.uploads;
    if (!upload || upload.bytes.length === 0) {
      throw refuse('file', 'send the file as the request body, or as one multipart file part.');
    }
    // Text in two encodings is refused now, not an hour later at import.
    const zip = isZip(upload.bytes);
    if (!zip) uploadedText(upload.bytes, 'file');
    return { guideId: guide.id, upload, zip };
  },
  // The guide is not opened for writing: an upload changes nothing of it, and leaves no history.
  async handler(input, ctx, { guideId, upload, zip }) {
    const store = ctx.stores.importUploads;
    await store.sweep();
    const { id, expiresAt } = await store.insert(guideId, upload.filename, upload.bytes);
    return {
      uploadId: id,
      productId: input.productId,
      filename: upload.filename ?? null,
      bytes: upload.bytes.length,
      zip,
      expiresAt,
    };
  },
});
