import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * How much of a refused body is read and thrown away so that its client reads the answer. A
 * client still sending when the server closes gets a reset, and Node's fetch then reports "fetch
 * failed" instead of the 413; past this bound the connection is closed anyway (16 MB: twice the
 * largest body any route takes, read in well under a second here).
 */
export const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * Reads the rest of a body the server refused, up to DRAIN_LIMIT, then lets the answer keep the
 * connection open (Fastify asks to close it after any body it could not parse). Over the bound,
 * or when the declared length is, nothing more is read and the connection closes after the answer.
 */
export function drainRefusedBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  const declared = Number(request.headers['content-length']);
  if (raw.complete) {
    reply.removeHeader('connection');
    return Promise.resolve();
  }
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT) return Promise.resolve();
  return new Promise((resolve) => {
    let drained = 0;
    const finish = (complete: boolean) => {
      raw.off('data', onData).off('end', onEnd).off('close', onClose);
      if (complete) reply.removeHeader('connection');
      resolve();
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    raw.on('data', onData).on('end', onEnd).on('close', onClose);
    raw.resume();
  });
}
