import type { Harness } from './harness.ts';

export interface UploadAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export interface FilePart {
  bytes: Buffer;
  type?: string;
  name?: string;
  field?: string;
}

async function answer(res: Response): Promise<UploadAnswer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** Query parameters; an array is sent once per item (a repeated parameter). */
function query(fields: Record<string, unknown>): string {
  const pairs = Object.entries(fields).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map((item): [string, string] => [k, String(item)]),
  );
  const qs = new URLSearchParams(pairs).toString();
  return qs ? `?${qs}` : '';
}

/** upload_media with the photo as the raw body. */
export async function uploadRaw(
  h: Harness,
  key: string,
  bytes: Buffer,
  contentType: string | undefined,
  fields: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<UploadAnswer> {
  const all: Record<string, string> = { authorization: `Bearer ${key}`, ...headers };
  if (contentType !== undefined) all['content-type'] = contentType;
  return answer(
    await fetch(`${h.baseUrl}/media/upload${query(fields)}`, { method: 'POST', headers: all, body: bytes }),
  );
}

/**
 * A multipart upload (`upload_media` or `upload_media_batch`): fields as form fields, then the files.
 * A field given as an array is sent once per item (a repeated form field).
 */
export async function uploadForm(
  h: Harness,
  key: string,
  path: '/media/upload' | '/media/upload-batch' | '/guides/import',
  files: readonly FilePart[],
  fields: Record<string, unknown> = {},
  queryFields: Record<string, unknown> = {},
): Promise<UploadAnswer> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
  }
  files.forEach((file, i) => {
    const blob = new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/jpeg' });
    form.append(file.field ?? 'file', blob, file.name ?? `photo-${i}.jpg`);
  });
  return answer(
    await fetch(`${h.baseUrl}${path}${query(queryFields)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }),
  );
}

/** The keys of every photo file the server keeps, in its folder or its bucket, sorted. */
export async function storedFiles(h: Harness): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of h.blobs.list()) keys.push(blob.key);
  return keys.sort();
}

/** The bytes an image URL serves, read like a buyer's browser would: no key. */
export async function fetchImage(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
