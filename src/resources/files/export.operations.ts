import { z } from 'zod';
import { defineOperation } from '../../core/operation.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { downloadUrl, fileNameOf } from './downloads.ts';
import { exportExamples } from './export.examples.ts';
import { exportFormats, exportSources } from './export-formats.ts';
import { exportWriters } from './export-writers.ts';

/** The first revision of the service with files in and out (issue 30). */
export const SINCE_FILES = '2026-11-27';

export const exportGuide = defineOperation({
  name: 'export_guide',
  title: 'Export',
  method: 'GET',
  path: '/guides/{productId}/export',
  scope: 'read',
  stability: 'beta',
  since: SINCE_FILES,
  example: exportExamples.export_guide,
  description:
    'A 15-minute link to the guide as a map file (live: what buyers have) and counts, not the file. ' +
    'Anyone with it can download: give it to the creator only.',
  input: z.strictObject({
    productId: productIdSchema,
    format: z.enum(exportFormats),
    from: z.enum(exportSources).optional(),
  }),
  output: z.object({
    productId: z.string(),
    format: z.enum(exportFormats),
    from: z.enum(exportSources),
    url: z.string().describe('GET it without a key until expiresAt'),
    fileName: z.string(),
    byteSize: z.number().describe('The file as written now'),
    counts: z.object({ spots: z.number(), areas: z.number(), routes: z.number(), hikes: z.number() }),
    leftOut: z.array(z.string()).describe('What the format cannot hold, if anything'),
    expiresAt: z.number().describe('Unix ms'),
  }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const writer = exportWriters[input.format];
    const from = input.from ?? 'working';
    const { stores, principal } = ctx;
    const request = {
      guide: { id: guide.id, creatorId: guide.creatorId },
      from,
      stores,
      services: ctx.services,
      now: ctx.clock.now(),
    };
    // Written once here for its facts; the download writes it again when opened (see downloads.ts).
    // An archive's zip is not read here: its size is summed from its parts.
    const file = await writer.write(request);
    if (!Buffer.isBuffer(file.body)) file.body.destroy();
    const link = { guideId: guide.id, creatorId: guide.creatorId, madeBy: principal.keyId, format: input.format, from };
    const { token, expiresAt } = await stores.downloadLinks.make(link);
    return {
      productId: guide.id,
      format: input.format,
      from,
      url: downloadUrl(ctx.urls, token),
      fileName: fileNameOf(writer, file.fileStem),
      byteSize: file.byteSize,
      counts: file.counts,
      leftOut: file.leftOut,
      expiresAt,
    };
  },
});

export const exportOperations = [exportGuide];
