import type { FastifyRequest } from 'fastify';
import { ApiError, refuse } from '../core/errors.ts';
import type { BodyKind, Upload } from '../core/operation.ts';
import { emptyRecord } from '../core/own.ts';

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

/** A declared length over the limit is answered at once, before a byte of the body is read. */
function refuseDeclaredLength(request: FastifyRequest, limit: number, what: string): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw tooLarge(`The ${what} is ${sizeText(declared)}; at most ${sizeText(limit)} is accepted.`);
  }
}

/** Raw bytes of one image or file, counted as they arrive: over the limit stops collecting at once. */
function readRaw(request: FastifyRequest, maxBytes: number, what: string): Promise<Buffer> {
  const raw = request.raw;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        finish();
        chunks.length = 0;
        reject(tooLarge(`The ${what} is over the ${sizeText(maxBytes)} limit.`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      finish();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      finish();
      reject(new ApiError('invalid_argument', `(body): the upload was cut short (${err.message})`));
    };
    const finish = () => {
      raw.off('data', onData).off('end', onEnd).off('error', onError);
    };
    raw.on('data', onData).on('end', onEnd).on('error', onError);
  });
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
  const bytes = await readRaw(request, body.maxBytes, what);
  return { fields: {}, uploads: [{ field: 'file', filename: undefined, contentType: type || undefined, bytes }] };
}

/** Whatever of an upload's body is left unread is drained, so the connection can carry the next request. */
export function drainUnread(request: FastifyRequest): void {
  if (!request.raw.readableEnded) request.raw.resume();
}
