import assert from 'node:assert/strict';
import { type Answer, assertError } from '../helpers/answers.ts';
import type { Api } from '../helpers/api.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';

/** Calls the import tests share: an upload of a file, and a refusal that leaves a new guide as it was. */

/** upload_import_file with the file as the raw body, or as a one-file form. */
export async function uploadImportFile(
  h: Harness,
  key: string,
  productId: string,
  bytes: Uint8Array,
  { type = 'application/octet-stream', form = false, name = 'places.csv' } = {},
): Promise<Answer> {
  const init: RequestInit = { method: 'POST', headers: { authorization: `Bearer ${key}` } };
  if (form) {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    init.body = body;
  } else {
    (init.headers as Record<string, string>)['content-type'] = type;
    init.body = new Uint8Array(bytes);
  }
  const res = await fetch(`${h.baseUrl}/guides/${productId}/import/upload`, init);
  return { ok: res.status < 300, status: res.status, body: (await res.json()) as any };
}

/**
 * import_spots on a new guide is refused with `code` at `path`, and the guide is as it was: no spot,
 * no stamp. `args` may be a function of the new guide (to upload a file to it first).
 */
export async function refusedWhole(
  api: Api,
  args: Record<string, unknown> | ((productId: string) => Promise<Record<string, unknown>>),
  code: 'invalid_request' | 'invalid_argument',
  path: string,
  hint: RegExp,
): Promise<void> {
  const productId = await newGuide(api, `hostile ${path}`);
  const before = await guideOf(api, productId);
  const input = typeof args === 'function' ? await args(productId) : args;
  assertError(await api.call('import_spots', { productId, ...input }), code, path, { hint });
  const after = await guideOf(api, productId);
  assert.equal(after.spotCount, 0);
  assert.equal(after.lastApiWriteAt, before.lastApiWriteAt);
}
