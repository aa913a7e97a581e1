import type { FastifyRequest } from 'fastify';
import { ApiError, refuse } from '../core/errors.ts';
import type { BodyKind, Upload } from '../core/operation.ts';
import { emptyRecord } from '../core/own.ts';
import { KeptBodies } from './kept-bodies.ts';

export type UploadBodyKind = Exclude<BodyKind, { kind: 'json' }>;

/**
 * Files and form fields of an upload request; fields are input fields like the query's. A field
 * sent more than once keeps every value, in order (a list field may be sent once per item).
 */
export interface UploadBody {
  fields: Record<string, string | string[]>;
  uploads: Upload[];
}

const MIB = 1024 * 1024;
/** Room beside the photo in a one-photo form, for its fields and part headers. */
const FORM_ROOM = 64 * 1024;
/** Form fields are metadata (a caption, a credit): none needs more. */
const MAX_FIELD_BYTES = 16 * 1024;
const MAX_FIELDS = 40;

function sizeText(bytes: number): string {
  return `${Math.round((bytes / MIB) * 10) / 10} MB`;
}

function tooLarge(sentence: string): ApiError {
  return new ApiError('payload_too_large', sentence);
}

function bareType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

interface Limits {
  total: number;
  files: number;
  fileBytes: number;
  /** What one file is called in refusals: a photo, or a file for import. */
  noun: 'photo' | 'file';
}

function limitsOf(body: UploadBodyKind): Limits {
  if (body.kind === 'multipart') {
    return { total: body.maxBytes, files: body.maxFiles, fileBytes: body.maxFileBytes, noun: 'photo' };
  }
  const noun = body.kind === 'image' ? 'photo' : 'file';
  return { total: body.maxBytes + FORM_ROOM, files: 1, fileBytes: body.maxBytes, noun };
}

/** The body's length its Content-Length header declares; undefined when it declares none (chunked). */
function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  const declared = header === undefined ? Number.NaN : Number(header);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
}

/** A declared length over the limit is answered at once, before a byte of the body is read. */
function refuseDeclaredLength(request: FastifyRequest, limit: number, what: string): void {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) {
    throw tooLarge(`The ${what} is ${sizeText(declared)}; at most ${sizeText(limit)} is accepted.`);
  }
}

/**
 * Raw bytes of one image or file, counted as they arrive: over the limit stops collecting at once.
 * With a declared length, each chunk is copied into one buffer of that length as it lands, so the
 * body is whole with its last byte: gathering a photo's chunks only then (Buffer.concat) put 5 MB
 * of fresh memory, ~1,300 page faults, on the main thread between the last byte and the first
 * decode. The buffer is taken with the first chunk, not the headers, and its pages are mapped only
 * as bytes are written to them, so a client that declares 6 MB and stalls holds what it sent. A
 * photo's buffer comes from `kept` when one is free, lent to the request until releaseUploadBody.
 */
function readRaw(request: FastifyRequest, maxBytes: number, what: string, kept?: KeptBodies): Promise<Buffer> {
  const raw = request.raw;
  const declared = declaredLength(request);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let whole: Buffer | undefined;
    let size = 0;
    const fail = (err: ApiError) => {
      finish();
      chunks.length = 0;
      whole = undefined;
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return fail(tooLarge(`The ${what} is over the ${sizeText(maxBytes)} limit.`));
      if (declared === undefined) return void chunks.push(chunk);
      // Node's parser ends a body at its Content-Length; more would be a client's error, never cut silently.
      if (size > declared) return fail(new ApiError('invalid_argument', '(body): longer than its Content-Length'));
      whole ??= lend(request, kept, declared) ?? Buffer.allocUnsafe(declared);
      chunk.copy(whole, size - chunk.length);
    };
    const onEnd = () => {
      finish();
      resolve(whole ? whole.subarray(0, size) : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      fail(new ApiError('invalid_argument', `(body): the upload was cut short (${err.message})`));
    };
    const finish = () => {
      raw.off('data', onData).off('end', onEnd).off('error', onError);
    };
    raw.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** Kept buffers of raw photo bodies, by the route's limit. */
const keptByLimit = new Map<number, KeptBodies>();

/** The buffers raw image bodies of at most `maxBytes` are read into. */
export function keptImageBodies(maxBytes: number): KeptBodies {
  const kept = keptByLimit.get(maxBytes) ?? new KeptBodies(maxBytes);
  keptByLimit.set(maxBytes, kept);
  return kept;
}

const lent = new WeakMap<object, { kept: KeptBodies; buffer: Buffer }>();

function lend(request: FastifyRequest, kept: KeptBodies | undefined, length: number): Buffer | undefined {
  const buffer = kept?.take(length);
  if (kept && buffer) lent.set(request.raw, { kept, buffer });
  return buffer;
}

/**
 * Once the call has ended: a kept buffer the body was read into goes back for the next upload, so
 * the operation must be done with its bytes (a photo's are, once processUpload has settled).
 */
export function releaseUploadBody(request: FastifyRequest): void {
  const loan = lent.get(request.raw);
  if (!loan) return;
  lent.delete(request.raw);
  loan.kept.giveBack(loan.buffer);
}

/** Errors of the multipart parser, in the envelope: byte limits are 413, too many files or a malformed form 400. */
function multipartError(err: unknown, limits: Limits, index: number, filename: string | undefined): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return tooLarge(
      `file ${index}${filename ? ` (${filename})` : ''} is over the ${sizeText(limits.fileBytes)} limit for one ${limits.noun}.`,
    );
  }
  // Too many files is too many items in a list (400), not too many bytes (413).
  if (code === 'FST_FILES_LIMIT') {
    return limits.files === 1
      ? refuse(
          'file',
          limits.noun === 'photo'
            ? 'one photo per request; send several with upload_media_batch.'
            : 'one file per request.',
        )
      : refuse('files', `at most ${limits.files} files are accepted in one batch; send the rest in another batch.`);
  }
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return tooLarge(`At most ${MAX_FIELDS} form fields are accepted beside the files.`);
  }
  if (code === 'FST_PROTO_VIOLATION') {
    // The multipart reader refuses these names before telling which one was sent.
    return new ApiError(
      'invalid_argument',
      '(body): a form field is named like a member of JavaScript objects (constructor, toString, __proto__…); ' +
        'no field of this API has such a name: leave it out.',
    );
  }
  return new ApiError(
    'invalid_argument',
    `(body): not a well-formed multipart/form-data body (${(err as Error).message ?? 'unreadable'})`,
  );
}

async function readMultipart(request: FastifyRequest, limits: Limits): Promise<UploadBody> {
  const fields = emptyRecord<string | string[]>();
  const uploads: Upload[] = [];
  let total = 0;
  let filename: string | undefined;
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.fileBytes,
        files: limits.files,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: limits.files + MAX_FIELDS,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldnameTruncated || part.valueTruncated) {
          throw tooLarge(`form field ${part.fieldname} is over ${MAX_FIELD_BYTES / 1024} KB.`);
        }
        total += String(part.value).length;
        const value = String(part.value);
        const earlier = fields[part.fieldname];
        fields[part.fieldname] = earlier === undefined ? value : [earlier, value].flat();
        continue;
      }
      filename = part.filename || undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        total += chunk.length;
        if (total > limits.total) throw tooLarge(`The upload is over the ${sizeText(limits.total)} limit.`);
        chunks.push(chunk);
      }
      // A form sent with no file chosen carries an empty part without a name: nothing was sent.
      if (size === 0 && filename === undefined) continue;
      uploads.push({
        field: part.fieldname,
        filename,
        contentType: part.mimetype || undefined,
        bytes: Buffer.concat(chunks, size),
      });
    }
  } catch (err) {
    throw multipartError(err, limits, uploads.length, filename);
  }
  return { fields, uploads };
}

/**
 * The body of an upload operation: a multipart form (files and fields), or for one image its raw
 * bytes. Sizes are checked against the declared length first and counted while the body arrives,
 * so a body over its limit is refused (413) before it is read whole. A JSON body (Fastify parsed
 * it already) carries no file: undefined.
 */
export async function readUploadBody(request: FastifyRequest, body: UploadBodyKind): Promise<UploadBody | undefined> {
  const type = bareType(request);
  const limits = limitsOf(body);
  if (type === 'multipart/form-data') {
    refuseDeclaredLength(request, limits.total, body.kind === 'multipart' ? 'batch upload' : 'upload');
    return readMultipart(request, limits);
  }
  if (type === 'application/json') return undefined;
  if (body.kind === 'multipart') {
    throw new ApiError(
      'invalid_argument',
      '(body): send the photos as multipart/form-data, one file part each, with any fields beside them',
    );
  }
  const what = body.kind === 'image' ? 'image' : 'file';
  refuseDeclaredLength(request, body.maxBytes, what);
  const kept = body.kind === 'image' ? keptImageBodies(body.maxBytes) : undefined;
  const bytes = await readRaw(request, body.maxBytes, what, kept);
  return { fields: {}, uploads: [{ field: 'file', filename: undefined, contentType: type || undefined, bytes }] };
}

/** Whatever of an upload's body is left unread is drained, so the connection can carry the next request. */
export function drainUnread(request: FastifyRequest): void {
  if (!request.raw.readableEnded) request.raw.resume();
}
