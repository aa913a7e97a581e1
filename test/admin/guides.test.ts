import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cli, newCreator, newGuide, newKey, ok, useAdminServer, world } from '../helpers/admin-cli.ts';
import { rest } from '../helpers/http.ts';

interface StatusMove {
  productId: string;
  status: string;
  publishedAt: number | null;
}

describe('admin command line: the studio moves on guides', () => {
  useAdminServer();

  test('guide status: publishedAt is set on the first move to published and kept after', async () => {
    const creatorId = await newCreator();
    await ok('agreement', 'accept', '--creator', creatorId);
    const { key } = await newKey(creatorId, '--scope', 'read');
    const { key: writeKey } = await newKey(creatorId, '--scope', 'write');
    const guideId = await newGuide(writeKey);
    const read = async () => (await rest(world.baseUrl, key, 'GET', `/guides/${guideId}`)).body;
    assert.equal((await read()).publishedAt, null);

    // Going on sale runs the publish gates and refuses with their blocking list.
    const refused = await cli('guide', 'status', '--guide', guideId, '--to', 'published');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /cannot go on sale/);
    const blocking = JSON.parse(refused.stderr.slice(refused.stderr.indexOf('{'), refused.stderr.lastIndexOf('}') + 1));
    assert.deepEqual(
      blocking.blocking.map((g: { code: string }) => g.code),
      ['no_price', 'no_spots'],
    );
    assert.equal((await read()).status, 'draft', 'a refused move changes nothing');
    assert.equal((await read()).publishedAt, null);
    assert.equal(
      (await rest(world.baseUrl, writeKey, 'PUT', `/guides/${guideId}/price`, { amountMinor: 900, currency: 'eur' }))
        .status,
      200,
    );
    assert.equal(
      (await rest(world.baseUrl, writeKey, 'POST', `/guides/${guideId}/spots`, { name: 'Lake' })).status,
      201,
    );
    const lastApiWriteAt = (await read()).lastApiWriteAt;

    const before = Date.now();
    const published = await ok<StatusMove>('guide', 'status', '--guide', guideId, '--to', 'published');
    assert.equal(published.productId, guideId);
    assert.equal(published.status, 'published');
    const publishedAt = published.publishedAt ?? 0;
    assert.ok(publishedAt >= before && publishedAt <= Date.now(), `publishedAt ${publishedAt} is the time of the move`);
    let guide = await read();
    assert.equal(guide.status, 'published');
    assert.equal(guide.publishedAt, published.publishedAt);
    assert.equal(guide.lastApiWriteAt, lastApiWriteAt, 'a studio move is not an API write');
    const releases = () =>
      world.store.db.selectFrom('releases').select(['number', 'key_id']).where('guide_id', '=', guideId).execute();
    assert.deepEqual(
      (await releases()).map((r) => ({ ...r })),
      [{ number: 1, key_id: null }],
      'going on sale writes the first release',
    );

    await new Promise((resolve) => setTimeout(resolve, 5));
    const archived = await ok<StatusMove>('guide', 'status', '--guide', guideId, '--to', 'archived');
    assert.equal(archived.status, 'archived');
    assert.equal(archived.publishedAt, published.publishedAt);
    guide = await read();
    assert.equal(guide.status, 'archived');
    assert.equal(guide.publishedAt, published.publishedAt);

    const again = await ok<StatusMove>('guide', 'status', '--guide', guideId, '--to', 'published');
    assert.equal(again.publishedAt, published.publishedAt, 'publishedAt is the first time it went on sale');
    guide = await read();
    assert.equal(guide.status, 'published');
    assert.equal(guide.publishedAt, published.publishedAt);
    assert.equal((await releases()).length, 1, 'nothing changed: no second release');

    await ok('guide', 'status', '--guide', guideId, '--to', 'draft');
    assert.equal((await read()).status, 'draft');
  });
  test('guide visibility and store review show in get_guide', async () => {
    const creatorId = await newCreator();
    const { key } = await newKey(creatorId, '--scope', 'write');
    const guideId = await newGuide(key);
    const read = async () => (await rest(world.baseUrl, key, 'GET', `/guides/${guideId}`)).body;
    let guide = await read();
    assert.equal(guide.visibleOnStore, false);
    assert.equal(guide.storeReviewStatus, null);

    assert.deepEqual(await ok('guide', 'visibility', '--guide', guideId, '--on'), {
      productId: guideId,
      visibleOnStore: true,
    });
    assert.equal((await read()).visibleOnStore, true);
    assert.deepEqual(await ok('guide', 'visibility', '--guide', guideId, '--off'), {
      productId: guideId,
      visibleOnStore: false,
    });
    assert.equal((await read()).visibleOnStore, false);

    await ok('guide', 'review', '--guide', guideId, '--status', 'rejected', '--note', 'Add a thumbnail');
    guide = await read();
    assert.equal(guide.storeReviewStatus, 'rejected');
    assert.equal(guide.storeReviewNote, 'Add a thumbnail');

    const approved = await ok('guide', 'review', '--guide', guideId, '--status', 'approved');
    assert.deepEqual(approved, { productId: guideId, storeReviewStatus: 'approved', storeReviewNote: null });
    guide = await read();
    assert.equal(guide.storeReviewStatus, 'approved');
    assert.equal(guide.storeReviewNote, null, 'a review without --note clears the old note');
  });
  test('guide sale records a purchase row', async () => {
    const creatorId = await newCreator();
    const { key } = await newKey(creatorId, '--scope', 'write');
    const guideId = await newGuide(key);
    const sale = await ok<{ productId: string; purchaseId: string }>('guide', 'sale', '--guide', guideId);
    assert.equal(sale.productId, guideId);
    assert.match(sale.purchaseId, /^pur_/);
    await ok('guide', 'sale', '--guide', guideId);
    const rows = await world.store.db.selectFrom('purchases').selectAll().where('guide_id', '=', guideId).execute();
    assert.equal(rows.length, 2);
    assert.ok(rows.some((r) => r.id === sale.purchaseId));
  });
});
