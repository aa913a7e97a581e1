import { assertOk } from '../helpers/answers.ts';
import type { Api } from '../helpers/api.ts';

/** A chapter (or collection) of the guide, as create_chapter answers it. */
export async function newChapter(api: Api, productId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const a = await api.call('create_chapter', { productId, name: 'Chapter', ...fields });
  assertOk(a, 201);
  return a.body;
}

/** The guide's chapters as list_chapters reads them. */
export async function chaptersOf(api: Api, productId: string): Promise<any[]> {
  const a = await api.call('list_chapters', { productId });
  assertOk(a);
  return a.body.chapters;
}

/** Spots with these keys, made in batches of 25. */
export async function newSpots(api: Api, productId: string, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 25) {
    const spots = keys.slice(i, i + 25).map((spotKey) => ({ spotKey, name: spotKey }));
    assertOk(await api.call('upsert_spots', { productId, spots }));
  }
}

/** n values made by `make`. */
export const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
