import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { type Api, describeOverTransports } from '../helpers/api.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { uploadForm } from '../helpers/uploads.ts';

/**
 * A keyset page resumes after the sort key of the last record it served. Records may share all of
 * it but the id: spots written with one order key (an import, a restore, SQL), places of one name,
 * photos moved to one order. The id, last in every order, is what tells them apart: without it a
 * page that ends inside such a run skips the rest of the run (or repeats it). Pages of two over
 * seven alike records must give each exactly once.
 */
const ALIKE = 7;
const PAGE = 2;

/** The ids of every record of a list, page after page. */
async function walkIds(api: Api, name: string, field: string, idField: string, args: Record<string, unknown>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 2 * ALIKE; pages++) {
    const a = await api.call(name, { ...args, limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
    assertOk(a);
    ids.push(...(a.body[field] as Array<Record<string, string>>).map((record) => record[idField] as string));
    cursor = a.body.nextCursor;
    if (cursor === undefined) return ids;
  }
  assert.fail(`${name} does not end`);
}

/** Each record once, in the order the first full read gives (the id breaks the ties). */
async function assertEachOnce(api: Api, name: string, field: string, idField: string, args: Record<string, unknown>) {
  const whole = await api.call(name, { ...args, limit: 100 });
  assertOk(whole);
  const all = (whole.body[field] as Array<Record<string, string>>).map((record) => record[idField]);
  assert.equal(all.length, ALIKE);
  assert.deepEqual(await walkIds(api, name, field, idField, args), all);
}

/** How many different values of `fields` the records hold. */
function distinct(records: Array<Record<string, unknown>>, fields: readonly string[]): number {
  return new Set(records.map((record) => JSON.stringify(fields.map((f) => record[f])))).size;
}

await describeOverTransports('pages of records whose sort keys are equal but for the id', (suite, t) => {
  const api = () => suite.apis[t];

  it('list_spots: spots sharing an order key and a creation time', async () => {
    const productId = await newGuide(api(), `${t} Alike spots`);
    const spots = Array.from({ length: ALIKE }, (_, i) => ({ spotKey: `alike-${i}`, name: `Alike ${i}` }));
    assertOk(await api().call('upsert_spots', { productId, spots }));
    // Written alike, as an import or a restore may: no operation sets a spot's order key itself.
    await suite.h.store.db
      .updateTable('spots')
      .set({ order_key: 1, created_at: suite.h.clock.now() })
      .where('guide_id', '=', productId)
      .execute();
    // A write moves the guide's revision, so no page kept from before the SQL is served.
    assertOk(await api().call('update_guide', { productId, headline: 'Alike' }));
    const listed = (await api().call('list_spots', { productId, limit: 100 })).body.spots;
    assert.equal(distinct(listed, ['order', 'createdAt']), 1, 'every spot shares its sort key but the id');
    await assertEachOnce(api(), 'list_spots', 'spots', 'spotId', { productId });
    await assertEachOnce(api(), 'list_spots', 'spots', 'spotId', { productId, view: 'compact' });
  });

  it('list_facilities: places of one name', async () => {
    const productId = await newGuide(api(), `${t} Alike places`);
    for (let i = 0; i < ALIKE; i++) {
      assertOk(await api().call('create_facility', { productId, kind: 'hut', name: 'Mountain Hut' }), 201);
    }
    await assertEachOnce(api(), 'list_facilities', 'facilities', 'facilityId', { productId });
  });

  it('list_media: photos moved to one order', async () => {
    const productId = await newGuide(api(), `${t} Alike photos`);
    const photo = { bytes: await flat(8, 8).png().toBuffer(), type: 'image/png' };
    const files = Array.from({ length: ALIKE }, () => photo);
    const up = await uploadForm(suite.h, suite.h.alice.writeKey, '/media/upload-batch', files, { productId });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    for (const { mediaId } of up.body.media as Array<{ mediaId: string }>) {
      assertOk(await api().call('reorder_media', { mediaId, order: 5 }));
    }
    const listed = (await api().call('list_media', { productId, limit: 100 })).body.media;
    assert.equal(distinct(listed, ['order', 'createdAt']), 1, 'every photo shares its sort key but the id');
    await assertEachOnce(api(), 'list_media', 'media', 'mediaId', { productId });
  });
});
