import type { z } from 'zod';
import { ApiError, refuse } from '../../core/errors.ts';
import { defineOperation, type PrepareContext } from '../../core/operation.ts';
import { pageOfList } from '../../core/paging.ts';
import { prepareTrack } from '../../shared/tracks/index.ts';
import { guideRecord } from '../guides/index.ts';
import { filesExamples } from './examples.ts';
import { isZip, sentText, uploadedText } from './file-content.ts';
import { SINCE_FILES } from './files-since.ts';
import { fileReaders, kmzReader } from './formats/index.ts';
import { IMPORT_PAGE, type ImportInput, importInputSchema, importOutputSchema } from './import.schema.ts';
import { type Candidates, candidatesOf } from './import-plan.ts';
import {
  applyImport,
  type ImportPlan,
  itemsOf,
  type PreparedLine,
  planImport,
  writesAnything,
} from './import-write.ts';
import type { FileReader, ImportedFile } from './imported-file.ts';

const readerOf = (format: ImportInput['format']): Promise<FileReader> => fileReaders[format]();

/** A refusal of an uploaded file names uploadId, where the file came from, rather than content. */
function asUploaded(read: () => ImportedFile): ImportedFile {
  try {
    return read();
  } catch (err) {
    if (err instanceof ApiError && err.message.startsWith('content: ')) {
      throw refuse('uploadId', `the file ${err.message.slice('content: '.length)}`);
    }
    throw err;
  }
}

/** A KMZ's places: the KML inside it, read as an uploaded KML is. */
async function readKmzUpload(bytes: Uint8Array): Promise<ImportedFile> {
  const readKmz = await kmzReader();
  return asUploaded(() => readKmz(bytes));
}

/** The file read, from `content` or an upload of this guide. */
async function importedFile(input: ImportInput, ctx: PrepareContext, guideId: string): Promise<ImportedFile> {
  if ((input.content === undefined) === (input.uploadId === undefined)) {
    throw refuse('content', 'send the file as content (text) or as uploadId (from upload_import_file), one of them.');
  }
  if (input.content !== undefined) return (await readerOf(input.format))(sentText(input.content));
  const upload = await ctx.stores.importUploads.find(guideId, input.uploadId as string);
  if (!upload) {
    throw refuse('uploadId', 'no upload of this guide has this id: uploads are kept an hour; upload the file again.');
  }
  if (isZip(upload.bytes)) {
    if (input.format !== 'kml') throw refuse('format', 'the upload is a zip archive (KMZ), so format must be kml.');
    return await readKmzUpload(upload.bytes);
  }
  const read = await readerOf(input.format);
  return asUploaded(() => read(uploadedText(upload.bytes, 'uploadId')));
}

/** Where the spots go besides the guide: collectionId's collection, and their folders' when asked. */
const collectionsOf = (input: ImportInput) => ({
  collectionId: input.collectionId,
  byFolder: input.collectionsFrom === 'folders',
});

interface PreparedImport {
  guideId: string;
  candidates: Omit<Candidates, 'lines'> & { lines: PreparedLine[] };
  /** A dry run's whole answer, read outside any transaction. */
  answer?: ImportAnswer;
}

type ImportAnswer = z.input<typeof importOutputSchema>;

function answerOf(guideId: string, input: ImportInput, plan: ImportPlan, ids?: Map<object, string>): ImportAnswer {
  const items = itemsOf(plan, ids);
  const count = (action: string) => items.filter((i) => i.action === action).length;
  const dryRun = input.dryRun === true;
  // A real import lists its first page; what follows is read by a dry run of the same file.
  const { nextCursor, ...page } = pageOfList(items, dryRun ? input : { limit: input.limit }, IMPORT_PAGE);
  return {
    productId: guideId,
    dryRun,
    created: count('create'),
    updated: count('update'),
    unchanged: count('unchanged'),
    skipped: count('skip'),
    ...(plan.collections.length > 0 && {
      addedToCollection: plan.collections.reduce((n, c) => n + c.newKeys.length, 0),
      collectionsCreated: plan.collections.filter((c) => c.id === undefined).length,
    }),
    items: page.items,
    total: page.total,
    ...(dryRun && nextCursor !== undefined && { nextCursor }),
  };
}

export const importSpots = defineOperation({
  name: 'import_spots',
  title: 'Import a file',
  method: 'POST',
  path: '/guides/{productId}/import',
  scope: 'write',
  stability: 'beta',
  since: SINCE_FILES,
  example: filesExamples.import_spots,
  description:
    'Imports a map file: places become spots keyed by name, lines hikes or routes; a re-import writes nothing. ' +
    'dryRun: what would change or be skipped, and why. KMZ or over 2 MB: upload_import_file, then uploadId.',
  input: importInputSchema,
  output: importOutputSchema,
  async prepare(input, ctx): Promise<PreparedImport> {
    const guide = await ctx.guide(input.productId);
    if (input.cursor !== undefined && input.dryRun !== true) {
      throw refuse('cursor', 'pages are read from a dry run (dryRun true); a real import answers its first page.');
    }
    const file = await importedFile(input, ctx, guide.id);
    if (input.areaId !== undefined && !(await ctx.stores.areas.exists(guide.id, input.areaId))) {
      throw refuse('areaId', `no area with id "${input.areaId}" in this guide; list them with list_areas.`);
    }
    const { region } = await guideRecord(ctx.stores, guide.id, ctx.urls);
    const { lines, ...rest } = candidatesOf(file, {
      keyFrom: input.keyFrom ?? 'name',
      linesAs: input.linesAs ?? 'hike',
      areaId: input.areaId,
      bbox: region?.bbox,
      byFolder: input.collectionsFrom === 'folders',
    });
    // Measuring and simplifying tracks is the slow part: here, outside the transaction.
    const prepared: PreparedLine[] = [];
    for (const line of lines)
      prepared.push({ ...line, track: await prepareTrack({ points: line.points }, line.where) });
    const candidates = { ...rest, lines: prepared };
    if (input.dryRun !== true) return { guideId: guide.id, candidates };
    const plan = await planImport(ctx, guide.id, candidates, collectionsOf(input));
    return { guideId: guide.id, candidates, answer: answerOf(guide.id, input, plan) };
  },
  async handler(input, ctx, prepared) {
    // A dry run touches nothing, not even the guide's stamp.
    if (prepared.answer) return prepared.answer;
    const unlocked = await planImport(ctx, prepared.guideId, prepared.candidates, collectionsOf(input));
    if (!writesAnything(unlocked)) return answerOf(prepared.guideId, input, unlocked);
    // Something to write: the guide is locked and the plan made again against what it holds now.
    const guide = await ctx.guide(input.productId);
    const plan = await planImport(ctx, guide.id, prepared.candidates, collectionsOf(input));
    const ids = await applyImport(ctx.stores, guide.id, plan);
    return answerOf(guide.id, input, plan, ids);
  },
});
