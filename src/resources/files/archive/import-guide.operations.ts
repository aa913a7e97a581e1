import { z } from 'zod';
import { refuse } from '../../../core/errors.ts';
import { newId } from '../../../core/new-id.ts';
import { type CallContext, defineOperation, type PrepareContext } from '../../../core/operation.ts';
import { SINCE_2026_09_30 } from '../../../core/versions.ts';
import { ARCHIVE_MAX_BYTES, type ArchiveRecords } from './archive-format.ts';
import { archiveExamples } from './examples.ts';

// The archive's reader, its record rules and the import itself are loaded by the first import, not
// by the start (performance.md, "Loaded when used").
const archiveReading = async () => {
  const [{ readArchive }, ids] = await Promise.all([import('./archive-reader.ts'), import('./record-ids.ts')]);
  return { readArchive, ...ids };
};

/** An archive read and checked, its photo files already in the blob store under new keys. */
interface PreparedImport {
  records: ArchiveRecords;
  /** Each file's key in the archive to the key it was written under. */
  blobKeys: Map<string, string>;
  /** Each written file's size, by its new key. */
  sizes: Map<string, number>;
}

async function deleteWritten(prepared: PreparedImport, ctx: Pick<CallContext, 'services'>): Promise<void> {
  await Promise.allSettled([...prepared.blobKeys.values()].map((key) => ctx.services.blobs.delete(key)));
}

/**
 * Reads the archive whole (refusing it before anything is written) and writes its photo files under
 * new keys, byte for byte, outside the transaction; when a write fails, those written are deleted.
 */
async function prepareImport(ctx: PrepareContext): Promise<PreparedImport> {
  const [upload] = ctx.uploads;
  if (!upload)
    throw refuse('archive', 'send the guide archive (a .zip from export_guide) as the body or one file part.');
  const { readArchive, filesOf, archiveNameOf } = await archiveReading();
  const { records, files } = readArchive(upload.bytes);
  const prepared: PreparedImport = { records, blobKeys: new Map(), sizes: new Map() };
  try {
    for (const file of filesOf(records)) {
      if (prepared.blobKeys.has(file.key)) continue;
      const key = newId('blob');
      prepared.blobKeys.set(file.key, key);
      const bytes = files.get(archiveNameOf(file)) as Buffer;
      await ctx.services.blobs.put(key, bytes, file.contentType);
      prepared.sizes.set(key, bytes.length);
    }
  } catch (err) {
    await deleteWritten(prepared, ctx);
    throw err;
  }
  return prepared;
}

export const importGuide = defineOperation({
  name: 'import_guide',
  title: 'Import a guide archive',
  method: 'POST',
  path: '/guides/import',
  scope: 'write',
  stability: 'beta',
  since: SINCE_2026_09_30,
  successStatus: 201,
  restOnly: true,
  body: { kind: 'file', maxBytes: ARCHIVE_MAX_BYTES },
  rateLimit: { policy: 'uploads', key: (_input, principal) => principal.keyId },
  description:
    'Makes a new draft guide from a guide archive (export_guide format archive), sent as the body ' +
    '(application/zip) or one multipart file part, at most 256 MB: every record with a new id and its references ' +
    'rewired, every photo file byte for byte with its credit and licence. No sale state comes along (no price, ' +
    'not on the store). All or nothing: a damaged or altered archive is refused naming the part.',
  input: z.strictObject({}),
  output: z.object({
    productId: z.string(),
    name: z.string(),
    slug: z.string(),
    counts: z.record(z.string(), z.number()).describe('Records and files written, by kind'),
  }),
  example: archiveExamples.import_guide,
  location: (answer) => `/guides/${answer.productId}`,
  prepare: (_input, ctx) => prepareImport(ctx),
  discard: deleteWritten,
  async handler(_input, ctx, prepared) {
    const { records } = prepared;
    const [{ GuideImport }, { countsOf }] = await Promise.all([import('./guide-import.ts'), archiveReading()]);
    const productId = await new GuideImport(ctx, records, prepared.blobKeys, prepared.sizes).run();
    const guide = await ctx.guide(productId);
    return {
      productId,
      name: guide.name,
      slug: guide.slug,
      counts: countsOf(records),
    };
  },
});
