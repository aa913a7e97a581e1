import assert from 'node:assert/strict';
import type { Api } from '../helpers/api.ts';
import { assertOk } from '../helpers/api.ts';
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

/** Spots with these keys. */
export async function newSpots(api: Api, productId: string, keys: readonly string[]): Promise<void> {
  assertOk(await api.call('upsert_spots', { productId, spots: keys.map((spotKey) => ({ spotKey, name: spotKey })) }));
}

/** The sales page as get_sales_page reads it. */
export async function salesPageOf(api: Api, productId: string): Promise<any> {
  const a = await api.call('get_sales_page', { productId });
  assertOk(a);
  return a.body;
}

/** n values made by `make`. */
export const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
