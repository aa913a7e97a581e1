import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers of at least this many bytes are compressed for clients that accept it. Smaller ones are
 * sent as they are: compressing a get_guide answer costs more time than the bytes it saves.
 */
export const COMPRESS_MIN_BYTES = 4096;

type Encoding = 'br' | 'gzip';

/** How many bodies were compressed, per encoding (the tests check that a cached view is compressed once). */
export const compressionCounts: Record<Encoding, number> = { br: 0, gzip: 0 };

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli at quality 5 compresses a megabyte-sized JSON answer about as fast as gzip at its default
 * level and smaller; the default quality (11) would take seconds for the largest lists. Both run
 * on libuv's thread pool, not on the event loop.
 */
function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  compressionCounts[encoding] += 1;
  if (encoding === 'br') {
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return gzipAsync(body);
}

/**
 * The encoding to answer with: br or gzip, whichever the client weighs more (br on a tie), none
 * when it accepts neither (no header, `identity`, or q=0). `*` stands for both when unnamed.
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding | undefined {
  if (typeof acceptEncoding !== 'string' || acceptEncoding === '') return undefined;
  let br: number | undefined;
  let gz: number | undefined;
  let any: number | undefined;
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const weight = Number.isFinite(q) ? q : 0;
    if (coding === 'br') br = weight;
    else if (coding === 'gzip' || coding === 'x-gzip') gz = weight;
    else if (coding === '*') any = weight;
  }
  const brWeight = br ?? any ?? 0;
  const gzWeight = gz ?? any ?? 0;
  if (brWeight <= 0 && gzWeight <= 0) return undefined;
  return brWeight >= gzWeight ? 'br' : 'gzip';
}

/**
 * Compressed forms of bodies that are sent again and again: a frozen view's bytes (src/core/json.ts
 * hands out the same Buffer for it each time) and the OpenAPI document are compressed once. A body
 * made for one request is a fresh Buffer; its entry goes with it.
 */
const compressedForms = new WeakMap<Buffer, Partial<Record<Encoding, Promise<Buffer>>>>();

function compressedOnce(body: Buffer, encoding: Encoding): Promise<Buffer> {
  let forms = compressedForms.get(body);
  if (!forms) {
    forms = {};
    compressedForms.set(body, forms);
  }
  let form = forms[encoding];
  if (!form) {
    form = compress(body, encoding);
    forms[encoding] = form;
    // A failure is not kept: the next request tries again (and this one goes uncompressed).
    form.catch(() => {
      if (forms[encoding] === form) delete forms[encoding];
    });
  }
  return form;
}

/** The body compressed in the encoding, or as it is should compression fail (it should not). */
async function encode(body: Buffer, encoding: Encoding): Promise<{ body: Buffer; encoding: Encoding | undefined }> {
  try {
    return { body: await compressedOnce(body, encoding), encoding };
  } catch {
    return { body, encoding: undefined };
  }
}

/**
 * Writes a whole answer on a raw Node response (the MCP paths, which write their own answers):
 * as it is when small (at once, without a promise), compressed when large and the request accepts it. `Vary: Accept-Encoding`
 * marks every answer large enough to be compressed, so that caches keep the forms apart.
 */
export function writeBody(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
): void | Promise<void> {
  if (body.length < COMPRESS_MIN_BYTES) {
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
    return;
  }
  return writeEncoded(res, status, headers, body);
}

/** A large body written compressed when the request accepts it, else as it is (writeBody). */
async function writeEncoded(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
): Promise<void> {
  const encoding = chooseEncoding(res.req?.headers['accept-encoding']);
  const sent = encoding === undefined ? { body, encoding } : await encode(body, encoding);
  const extra: Record<string, string> = { vary: 'Accept-Encoding', 'content-length': String(sent.body.length) };
  if (sent.encoding) extra['content-encoding'] = sent.encoding;
  res.writeHead(status, { ...headers, ...extra });
  res.end(sent.body);
}

/**
 * Sends a JSON answer through Fastify (REST and the OpenAPI document), compressed when large and
 * the client accepts it. Called where those answers are sent rather than as an onSend hook, so
 * that small answers, the hot path, pay nothing at all.
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, body: Buffer): Promise<FastifyReply> {
  return sendBody(request, reply, body, 'application/json; charset=utf-8');
}

/**
 * Sends a whole body of this type through Fastify, compressed when large and the client accepts
 * it; a Buffer sent again and again (a cached page) is compressed once.
 */
export async function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Buffer,
  contentType: string,
): Promise<FastifyReply> {
  if (body.length < COMPRESS_MIN_BYTES && reply.statusCode < 300) return writeNow(reply, body, contentType);
  reply.type(contentType);
  if (body.length < COMPRESS_MIN_BYTES) return reply.send(body);
  const vary = reply.getHeader('vary');
  reply.header('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  if (encoding === undefined) return reply.send(body);
  const sent = await encode(body, encoding);
  if (sent.encoding) reply.header('Content-Encoding', sent.encoding);
  return reply.send(sent.body);
}

/**
 * A small success written straight to the socket with the headers set so far, as the raw baseline
 * writes its bytes: Fastify's send path (its content-type parse, the onSend hooks, which only
 * challenge 401s and 403s) has nothing to add to a finished Buffer. onResponse hooks still run.
 */
function writeNow(reply: FastifyReply, body: Buffer, contentType: string): FastifyReply {
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  headers['content-type'] = contentType;
  headers['content-length'] = String(body.length);
  reply.hijack();
  reply.raw.writeHead(reply.statusCode, headers);
  reply.raw.end(body);
  return reply;
}
