import type { FastifyRequest } from 'fastify';

/** A part as the multipart reader lists it in `fields`: a text field's value, a file's bytes once read. */
interface ListedPart {
  value?: unknown;
  _buf?: Buffer | null;
}

/**
 * A multipart form's fields on `request.body` (a preValidation hook): text as strings, a file as
 * `{ bytes, filename }`, a repeated name as a list. It is what @fastify/multipart's
 * `attachFieldsToBody: 'keyValues'` with an `onFile` does, step for step; that option also makes the
 * plugin read `globalThis.FormData` when it is registered, which loads Node's own copy of undici
 * (~40 ms of CPU at every start) for a `request.formData()` the studio never calls.
 */
export async function formPartsOnBody(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  for await (const part of request.parts(request.routeOptions.config.multipartOptions)) {
    request.body = part.fields;
    if (part.type === 'file' && part.file) {
      (part as unknown as { value: unknown }).value = { bytes: await part.toBuffer(), filename: part.filename };
    }
  }
  request.body = keyValues(request.body as Record<string, ListedPart | ListedPart[]> | undefined);
}

function keyValues(fields: Record<string, ListedPart | ListedPart[]> | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(fields ?? {})) {
    const field = fields![key]!;
    // A field without a value or bytes is left out, as the plugin leaves it out.
    if (!Array.isArray(field)) {
      if (field.value !== undefined) body[key] = field.value;
      else if (field._buf) body[key] = field._buf;
      continue;
    }
    const items = field.flatMap((item) => (item.value !== undefined ? [item.value] : item._buf ? [item._buf] : []));
    if (items.length) body[key] = items;
  }
  return body;
}
