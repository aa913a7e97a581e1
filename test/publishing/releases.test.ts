import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { unpackImage } from '../../src/resources/publishing/image-format.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, describeOverTransports } from '../helpers/api.ts';
import { newChapter, newGuide, newPhoto, recordPurchase } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';
import { putOnSale, type SaleGuide, saleGuide } from '../helpers/sale-guide.ts';
import { wholeGuide } from '../helpers/whole-guide.ts';

/**
 * list_releases, get_release and restore_release: a release keeps the whole working copy it was
 * published from, so a restore gives back exactly what it held (compared whole through the one
 * whole-guide reader), as one change that undo_changes takes back exactly.
 */

interface Story {
  guide: SaleGuide;
  /** The working copy the guide went on sale with (release 1). */
  atRelease1: unknown;
  /** The working copy release 2 was published from. */
  atRelease2: unknown;
  /** What a photo of release 2, deleted since, is served from. */
  deletedPhotoUrls: string[];
  ids: { archived: string; chapter: string; itinerary: string; deletedPhoto: string; newSpot: string };
}

async function latestChange(api: Api, productId: string): Promise<any> {
  const a = await api.call('list_changes', { productId, limit: 1 });
  assertOk(a);
  return a.body.changes[0];
}

/**
 * Release 1 (going on sale), then release 2 after a chapter, an itinerary, a photo and an archived
 * spot were added; then spots, photos, the chapter and the itinerary change without a publish.
 */
async function story(h: Harness, api: Api, publisher: Api, name: string): Promise<Story> {
  const guide = await saleGuide(h, api, name);
  await putOnSale(h, guide.productId);
  const { productId, spotIds } = guide;
  const atRelease1 = await wholeGuide(h, productId);
  const chapter = await newChapter(api, productId, { name: 'Lakes' });
  assertOk(
    await api.call('set_chapter_members', {
      collectionId: chapter.collectionId,
      members: [{ spotKey: 'bled' }, { spotKey: 'bohinj' }],
    }),
  );
  const itinerary = await api.call('create_itinerary', { productId, name: 'A lakes weekend' });
  assertOk(itinerary, 201);
  const days = [
    {
      title: 'Bled',
      stops: [
        { kind: 'spot', spotKey: 'bled' },
        { kind: 'spot', spotKey: 'vintgar' },
      ],
    },
  ];
  assertOk(await api.call('set_itinerary_days', { itineraryId: itinerary.body.itineraryId, days }));
  const deletedPhoto = await newPhoto(h, productId, 'Jure');
  const archived = await api.call('create_spot', { productId, name: 'Closed cave', reviewNotes: 'Shut in 2026' });
  assertOk(archived, 201);
  assertOk(await api.call('update_spot', { spotId: archived.body.spotId, archived: true }));
  assertOk(await publisher.call('publish_changes', { productId }));
  const atRelease2 = await wholeGuide(h, productId);
  const media = (await api.call('list_media', { productId })).body.media;
  const deletedPhotoUrls = Object.values(media.find((m: any) => m.mediaId === deletedPhoto).urls) as string[];

  // Work after release 2, none of it published.
  assertOk(await api.call('update_spot', { spotId: spotIds.bohinj, name: 'Bohinj, renamed', reviewNotes: 'New' }));
  assertOk(await api.call('update_spot', { spotId: archived.body.spotId, archived: false, name: 'Cave, open again' }));
  assertOk(await api.call('delete_spot', { spotId: spotIds.vintgar }));
  const newSpot = await api.call('create_spot', { productId, name: 'Savica waterfall' });
  assertOk(newSpot, 201);
  assertOk(await api.call('delete_media', { mediaId: deletedPhoto }));
  const newPhotoId = await newPhoto(h, productId, 'Tina');
  // The itinerary's cover points at a photo release 2 never held: it must let go before that photo leaves.
  assertOk(await api.call('update_itinerary', { itineraryId: itinerary.body.itineraryId, coverMediaId: newPhotoId }));
  assertOk(
    await api.call('set_chapter_members', {
      collectionId: chapter.collectionId,
      members: [{ spotKey: newSpot.body.spotKey }],
    }),
  );
  const newDays = [{ title: 'Falls', stops: [{ kind: 'spot', spotKey: newSpot.body.spotKey }] }];
  assertOk(await api.call('set_itinerary_days', { itineraryId: itinerary.body.itineraryId, days: newDays }));
  return {
    guide,
    atRelease1,
    atRelease2,
    deletedPhotoUrls,
    ids: {
      archived: archived.body.spotId,
      chapter: chapter.collectionId,
      itinerary: itinerary.body.itineraryId,
      deletedPhoto,
      newSpot: newSpot.body.spotId,
    },
  };
}

/** A release's row and the image row it kept, read from the store. */
async function keptImage(h: Harness, productId: string, number: number) {
  const release = await h.store.db
    .selectFrom('releases')
    .select('id')
    .where('guide_id', '=', productId)
    .where('number', '=', number)
    .executeTakeFirstOrThrow();
  const packed = await h.store.db
    .selectFrom('release_images')
    .selectAll()
    .where('release_id', '=', release.id)
    .executeTakeFirstOrThrow();
  return { release, packed };
}

/** Every page of a paged list, read `limit` at a time. */
async function allPages(api: Api, name: string, args: Record<string, unknown>, field: string): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.call(name, { ...args, ...(cursor && { cursor }) });
    assertOk(page);
    items.push(...page.body[field]);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}

await describeOverTransports('releases', (suite, t) => {
  let api: Api;
  let publisher: Api;
  let s: Story;
  before(async () => {
    api = suite.apis[t];
    publisher = apiFor(suite.h, t, suite.h.alice.publishKey);
    s = await story(suite.h, api, publisher, `Releases over ${t}`);
  });

  it('lists releases newest first, page by page, with who published them and what they held', async () => {
    const { productId } = s.guide;
    const releases = await allPages(api, 'list_releases', { productId, limit: 1 }, 'releases');
    assert.deepEqual(
      releases.map((r) => r.release),
      [2, 1],
    );
    const [second, first] = releases;
    assert.deepEqual(first.by, { kind: 'studio', name: 'the studio' });
    assert.equal(second.by.kind, 'key');
    assert.equal(first.counts.spots, 3);
    assert.equal(second.counts.spots, 3, 'the archived spot is not what buyers could open');
    assert.equal(second.counts.chapters, 1);
    assert.equal(second.counts.itineraries, 1);
    assert.equal(second.counts.photos, first.counts.photos + 1);
  });

  it('tells how the working copy differs from a release, by kind and record, paged', async () => {
    const { productId, spotIds } = s.guide;
    const whole = await api.call('get_release', { productId, release: 2 });
    assertOk(whole);
    assert.equal(whole.body.restorable, true);
    assert.ok(JSON.stringify(whole.body).length < 64 * 1024);
    const records = await allPages(api, 'get_release', { productId, release: 2, limit: 2 }, 'records');
    assert.equal(records.length, whole.body.total);
    const change = (kind: string, id: string) => records.find((r) => r.kind === kind && r.id === id)?.change;
    assert.equal(change('spot', spotIds.bohinj as string), 'changed');
    assert.equal(change('spot', spotIds.vintgar as string), 'removed');
    assert.equal(change('spot', s.ids.newSpot), 'added');
    assert.equal(change('spot', s.ids.archived), 'changed');
    assert.equal(change('photo', s.ids.deletedPhoto), 'removed');
    assert.equal(change('chapter', s.ids.chapter), 'changed');
    assert.equal(change('itinerary', s.ids.itinerary), 'changed');
    assert.equal(records.find((r) => r.id === s.ids.newSpot).name, 'Savica waterfall');
    assert.equal(records.find((r) => r.id === s.ids.chapter).name, 'Lakes', 'named though only its members changed');
    const spots = whole.body.changes.find((c: any) => c.kind === 'spot');
    assert.deepEqual(spots, { kind: 'spot', added: 1, changed: 2, removed: 1 });
  });

  it('restores a release exactly as one change, keeps the photo files, and undo gives the working copy back', async () => {
    const { productId } = s.guide;
    const working = await wholeGuide(suite.h, productId);
    const restored = await api.call('restore_release', { productId, release: 2 });
    assertOk(restored);
    assert.deepEqual(await wholeGuide(suite.h, productId), s.atRelease2);
    for (const url of s.deletedPhotoUrls) assert.equal((await fetch(url)).status, 200, url);
    const change = await latestChange(api, productId);
    assert.equal(change.operation, 'restore_release');
    assert.equal(change.changeId, restored.body.changeId);
    assert.equal(change.undoable, true);
    const none = await api.call('get_release', { productId, release: 2 });
    assert.equal(none.body.total, 0, 'the working copy holds release 2 now');
    const live = (await api.call('get_publish_status', { productId })).body;
    assert.equal(live.currentRelease.number, 2, 'buyers see nothing new until a publish');

    const undo = await api.call('undo_changes', { productId, changeIds: [restored.body.changeId] });
    assertOk(undo);
    assert.deepEqual(await wholeGuide(suite.h, productId), working);
    const redo = await api.call('undo_changes', { productId, changeIds: [undo.body.changeId] });
    assertOk(redo);
    assert.deepEqual(await wholeGuide(suite.h, productId), s.atRelease2, 'redo restores again');
    assertOk(await api.call('undo_changes', { productId, changeIds: [redo.body.changeId] }));
    assert.deepEqual(await wholeGuide(suite.h, productId), working);
  });

  it('restores the first release, before the chapter, itinerary and photo existed, and undoes it', async () => {
    const { productId } = s.guide;
    const working = await wholeGuide(suite.h, productId);
    const restored = await api.call('restore_release', { productId, release: 1 });
    assertOk(restored);
    assert.deepEqual(await wholeGuide(suite.h, productId), s.atRelease1);
    assertError(await api.call('get_itinerary', { itineraryId: s.ids.itinerary }), 'not_found');
    assertOk(await api.call('undo_changes', { productId, changeIds: [restored.body.changeId] }));
    assert.deepEqual(await wholeGuide(suite.h, productId), working);
  });

  it('answers a restore to what the working copy already holds with no change', async () => {
    const { productId } = s.guide;
    const restored = await api.call('restore_release', { productId, release: 2 });
    assertOk(restored);
    const total = (await api.call('list_changes', { productId })).body.total;
    const again = await api.call('restore_release', { productId, release: 2 });
    assertOk(again);
    assert.equal(again.body.changeId, undefined);
    assert.deepEqual(again.body.changes, []);
    assert.equal((await api.call('list_changes', { productId })).body.total, total);
    assertOk(await api.call('undo_changes', { productId, changeIds: [restored.body.changeId] }));
  });

  it('changes nothing when a restore is refused', async () => {
    const { productId } = s.guide;
    const before = await wholeGuide(suite.h, productId);
    const history = (await api.call('list_changes', { productId })).body.total;
    await recordPurchase(suite.h, productId);
    try {
      assertError(await api.call('restore_release', { productId, release: 1 }), 'guide_sold');
    } finally {
      await suite.h.store.db.deleteFrom('purchases').where('guide_id', '=', productId).execute();
    }
    assertError(await api.call('restore_release', { productId, release: 9 }), 'not_found');
    assert.deepEqual(await wholeGuide(suite.h, productId), before);
    assert.equal((await api.call('list_changes', { productId })).body.total, history);
  });

  it('compares and restores a release whose image was kept as one JSON document, as images were before 2026-11-28', async () => {
    const { productId } = s.guide;
    const { release, packed: kept } = await keptImage(suite.h, productId, 2);
    const rowALine = await unpackImage(kept.image);
    assert.ok(
      [...rowALine.tables.values()].every((rows) => rows instanceof Map),
      'a publish keeps its rows by key',
    );
    const differences = await allPages(api, 'get_release', { productId, release: 2 }, 'records');
    // The same rows as the single document the publish wrote before: each table's rows as read, joined.
    const tables = [...rowALine.tables].map(
      ([name, rows]) =>
        `${JSON.stringify(name)}:[${[...(rows as Map<string, Uint8Array>).values()].map((row) => Buffer.from(row).toString()).join(',')}]`,
    );
    const oneDocument = gzipSync(`{"tables":{${tables.join(',')}}}`);
    await suite.h.store.db
      .updateTable('release_images')
      .set({ image: oneDocument })
      .where('release_id', '=', release.id)
      .execute();
    try {
      assert.deepEqual(await allPages(api, 'get_release', { productId, release: 2 }, 'records'), differences);
      const working = await wholeGuide(suite.h, productId);
      const restored = await api.call('restore_release', { productId, release: 2 });
      assertOk(restored);
      assert.deepEqual(await wholeGuide(suite.h, productId), s.atRelease2);
      assertOk(await api.call('undo_changes', { productId, changeIds: [restored.body.changeId] }));
      assert.deepEqual(await wholeGuide(suite.h, productId), working);
    } finally {
      await suite.h.store.db
        .updateTable('release_images')
        .set({ image: kept.image })
        .where('release_id', '=', release.id)
        .execute();
    }
  });

  it('compares a release published before images were kept by its snapshot, and refuses to restore it', async () => {
    const { productId } = s.guide;
    const { release, packed } = await keptImage(suite.h, productId, 1);
    await suite.h.store.db.deleteFrom('release_images').where('release_id', '=', release.id).execute();
    try {
      const old = await api.call('get_release', { productId, release: 1 });
      assertOk(old);
      assert.equal(old.body.restorable, false);
      assert.equal(old.body.counts.spots, 3, 'counted from its row hashes');
      const change = (kind: string, id: string) => old.body.records.find((r: any) => r.kind === kind && r.id === id);
      assert.equal(change('spot', s.ids.newSpot)?.change, 'added');
      assert.equal(change('chapter', s.ids.chapter)?.change, 'added');
      assert.equal(change('spot', s.ids.archived)?.change, 'added', 'archived then, buyers see it now');
      const before = await wholeGuide(suite.h, productId);
      assertError(await api.call('restore_release', { productId, release: 1 }), 'invalid_request', 'release');
      assert.deepEqual(await wholeGuide(suite.h, productId), before);
    } finally {
      await suite.h.store.db.insertInto('release_images').values(packed).execute();
    }
  });

  it("answers another creator's release and a missing one 404 alike", async () => {
    const { productId } = s.guide;
    const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
    try {
      const bobs = await newGuide(bob, 'Bob guide');
      for (const [who, guide, release] of [
        [bob, productId, 1],
        [api, productId, 3],
        [api, bobs, 1],
      ] as const) {
        assertError(await who.call('get_release', { productId: guide, release }), 'not_found');
        assertError(await who.call('restore_release', { productId: guide, release }), 'not_found');
      }
      assertError(await bob.call('list_releases', { productId }), 'not_found');
    } finally {
      await bob.close();
    }
  });
});
