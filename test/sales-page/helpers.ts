import assert from 'node:assert/strict';
import { assertOk } from '../helpers/answers.ts';
import type { Api } from '../helpers/api.ts';
import type { Harness } from '../helpers/harness.ts';
import { flat } from '../media/images.ts';
import { uploadRaw } from '../media/uploads.ts';

/** A photo of the guide, uploaded by Alice; credited unless `credit` is undefined. */
export async function newPhoto(h: Harness, productId: string, credit?: string): Promise<string> {
  const bytes = await flat(32, 24).png().toBuffer();
  const fields = credit === undefined ? { productId } : { productId, credit };
  const res = await uploadRaw(h, h.alice.writeKey, bytes, 'image/png', fields);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.mediaId as string;
}

/** The sales page as get_sales_page reads it. */
export async function salesPageOf(api: Api, productId: string): Promise<any> {
  const a = await api.call('get_sales_page', { productId });
  assertOk(a);
  return a.body;
}

export { many, newSpots } from '../chapters/helpers.ts';
