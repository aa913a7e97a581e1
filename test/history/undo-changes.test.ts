import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, describeOverTransports } from '../helpers/api.ts';
import { assertNoDanglingStops, newChapter, newGuide, newPhoto, tripParts } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';
import { wholeGuide } from '../helpers/whole-guide.ts';

/**
 * Every kind of write is recorded by invoke and the triggers with no line of its own, and undoing
 * it gives back the whole guide as it was (read through the one whole-guide reader); undoing the
 * undo gives back the guide as the write left it.
 */

async function latestChange(api: Api, productId: string): Promise<any> {
  const a = await api.call('list_changes', { productId, limit: 1 });
  assertOk(a);
  return a.body.changes[0];
}

/** Undoes the changes, the guide then whole as `before`; undoes that undo, the guide whole as `after`. */
async function undoThenRedo(
  api: Api,
  h: Harness,
  productId: string,
  changeIds: string[],
  guides: { before: unknown; after: unknown },
): Promise<void> {
  const undo = await api.call('undo_changes', { productId, changeIds });
  assertOk(undo);
  assert.deepEqual(await wholeGuide(h, productId), guides.before);
  const redo = await api.call('undo_changes', { productId, changeIds: [undo.body.changeId] });
  assertOk(redo);
  assert.deepEqual(await wholeGuide(h, productId), guides.after);
}

interface Setup {
  productId: string;
  ids: Record<string, string>;
}

/** One write of each kind, made on a guide that already holds one of everything. */
const WRITES: { title: string; write: (api: Api, s: Setup, h: Harness) => Promise<unknown> }[] = [
  { title: 'create_spot', write: (api, s) => api.call('create_spot', { productId: s.productId, name: 'Bohinj' }) },
  {
    title: 'update_spot',
    write: (api, s) => api.call('update_spot', { spotId: s.ids.spot, name: 'Lake Bled, west shore' }),
  },
  {
    title: 'upsert_spots',
    write: (api, s) =>
      api.call('upsert_spots', {
        productId: s.productId,
        spots: [
          { spotKey: s.ids.spotKey, name: 'Renamed by upsert' },
          { spotKey: 'new-one', name: 'New one' },
        ],
      }),
  },
  {
    title: 'set_area',
    write: (api, s) => api.call('set_area', { productId: s.productId, name: 'Triglav National Park' }),
  },
  {
    title: 'create_chapter',
    write: (api, s) => api.call('create_chapter', { productId: s.productId, name: 'Lakes' }),
  },
  {
    title: 'set_chapter_members',
    write: (api, s) =>
      api.call('set_chapter_members', { collectionId: s.ids.chapter, members: [{ spotKey: s.ids.spotKey }] }),
  },
  {
    title: 'update_facility',
    write: (api, s) => api.call('update_facility', { facilityId: s.ids.hut, name: 'Koča na Planini' }),
  },
  {
    title: 'create_route',
    write: (api, s) => api.call('create_route', { productId: s.productId, name: 'Gorge road' }),
  },
  {
    title: 'set_route_spots',
    write: (api, s) => api.call('set_route_spots', { routeId: s.ids.route, spotKeys: [s.ids.spotKey, s.ids.spotKey2] }),
  },
  { title: 'update_hike', write: (api, s) => api.call('update_hike', { hikeId: s.ids.hike, name: 'Eight Lakes' }) },
  {
    title: 'create_itinerary',
    write: (api, s) => api.call('create_itinerary', { productId: s.productId, name: 'A weekend' }),
  },
  {
    title: 'set_itinerary_days',
    write: (api, s) =>
      api.call('set_itinerary_days', {
        itineraryId: s.ids.itinerary,
        days: [{ title: 'Day one', stops: [{ kind: 'spot', spotKey: s.ids.spotKey }] }],
      }),
  },
  { title: 'upload_media', write: (_api, s, h) => newPhoto(h, s.productId, 'Ana') },
  {
    title: 'update_media',
    write: (api, s) => api.call('update_media', { mediaId: s.ids.photo, credit: 'Someone else' }),
  },
  {
    title: 'create_property',
    write: (api, s) => api.call('create_property', { productId: s.productId, label: 'Parking', kind: 'shortLabel' }),
  },
  {
    title: 'save_sales_page_draft',
    write: (api, s) => api.call('save_sales_page_draft', { productId: s.productId, headline: 'Lakes and gorges' }),
  },
  {
    title: 'update_guide',
    write: (api, s) => api.call('update_guide', { productId: s.productId, name: 'Slovenia, renamed' }),
  },
  {
    title: 'set_guide_price',
    write: (api, s) => api.call('set_guide_price', { productId: s.productId, amountMinor: 1200, currency: 'eur' }),
  },
];

async function guideWithEverything(api: Api, h: Harness): Promise<Setup> {
  const productId = await newGuide(api, 'Slovenia');
  const trip = await tripParts(api, productId);
  const chapter = await newChapter(api, productId);
  const itinerary = await api.call('create_itinerary', { productId, name: 'Three days' });
  assertOk(itinerary, 201);
  const photo = await newPhoto(h, productId, 'Jure');
  return {
    productId,
    ids: {
      spot: trip.spotIds[0],
      spot2: trip.spotIds[1],
      spotKey: trip.spots[0],
      spotKey2: trip.spots[1],
      hut: trip.hut,
      route: trip.route,
      hike: trip.hike,
      chapter: chapter.collectionId,
      itinerary: itinerary.body.itineraryId,
      photo,
    },
  };
}

await describeOverTransports('undo_changes', (suite, t) => {
  let api: Api;
  let setup: Setup;
  before(async () => {
    api = suite.apis[t];
    setup = await guideWithEverything(api, suite.h);
  });

  for (const { title, write } of WRITES) {
    it(`records ${title}, undoes it, and redoes it`, async () => {
      const { productId } = setup;
      const before = await wholeGuide(suite.h, productId);
      const made = (await write(api, setup, suite.h)) as { ok?: boolean; body?: unknown } | string;
      if (typeof made === 'object') assert.ok(made.ok, JSON.stringify(made.body));
      const after = await wholeGuide(suite.h, productId);
      assert.notDeepEqual(after, before, 'the write changed the guide');
      const change = await latestChange(api, productId);
      assert.equal(change.operation, title);
      assert.equal(change.undoable, true);
      await undoThenRedo(api, suite.h, productId, [change.changeId], { before, after });
    });
  }

  it('keeps only the part of a long text a write changed, and puts the whole text back from it', async () => {
    const { productId, ids } = setup;
    const long = Array.from({ length: 60 }, (_, i) => `Day ${i}: the gorge, then the lake path 🌲.`).join(' ');
    assertOk(await api.call('update_spot', { spotId: ids.spot, description: long }));
    const start = await wholeGuide(suite.h, productId);
    const edited = long.replace('Day 30:', 'Day thirty:');
    assertOk(await api.call('update_spot', { spotId: ids.spot, description: edited }));
    const first = await latestChange(api, productId);
    assertOk(await api.call('update_spot', { spotId: ids.spot, description: edited.replace('Day 5:', 'Day five:') }));
    const second = await latestChange(api, productId);
    const end = await wholeGuide(suite.h, productId);
    const kept = await suite.h.store.db
      .selectFrom('change_rows')
      .select('before')
      .where('change_id', 'in', [first.changeId, second.changeId])
      .execute();
    for (const { before } of kept) {
      // The embedded store keeps the edit (db/history-splices.ts); PostgreSQL the whole text.
      if (suite.dialect === 'sqlite') assert.ok(before!.length < 200, before!);
      else assert.ok(before!.includes(long.slice(-100)));
    }
    await undoThenRedo(api, suite.h, productId, [first.changeId, second.changeId], { before: start, after: end });
  });

  it("puts an itinerary's long days back after one day's note changed", async () => {
    const { productId, ids } = setup;
    const days = Array.from({ length: 14 }, (_, i) => ({
      title: `Day ${i + 1}`,
      note: `Walk to the hut and back by the lower path; the car parks fill by nine (${i}).`,
      stops: [{ kind: 'spot', spotKey: ids.spotKey }],
    }));
    assertOk(await api.call('set_itinerary_days', { itineraryId: ids.itinerary, days }));
    const start = await wholeGuide(suite.h, productId);
    const changed = days.map((d, i) => (i === 3 ? { ...d, note: 'Start early.' } : d));
    assertOk(await api.call('set_itinerary_days', { itineraryId: ids.itinerary, days: changed }));
    const change = await latestChange(api, productId);
    const after = await wholeGuide(suite.h, productId);
    await undoThenRedo(api, suite.h, productId, [change.changeId], { before: start, after });
  });

  it('refuses with stale_editor while a later change touched the same record, and undoes both when named', async () => {
    const { productId, ids } = setup;
    const before = await wholeGuide(suite.h, productId);
    assertOk(await api.call('update_spot', { spotId: ids.spot2, name: 'First edit' }));
    const first = await latestChange(api, productId);
    assertOk(await api.call('update_spot', { spotId: ids.spot2, name: 'Second edit' }));
    const second = await latestChange(api, productId);
    const whileRefused = await wholeGuide(suite.h, productId);
    const refused = await api.call('undo_changes', { productId, changeIds: [first.changeId] });
    assertError(refused, 'stale_editor');
    assert.match(refused.body.error.message, new RegExp(second.changeId));
    if (t === 'rest') assert.deepEqual(refused.body.error.details, { changeIds: [second.changeId] });
    assert.deepEqual(await wholeGuide(suite.h, productId), whileRefused, 'a refused undo changes nothing');
    assertOk(await api.call('undo_changes', { productId, changeIds: [first.changeId, second.changeId] }));
    assert.deepEqual(await wholeGuide(suite.h, productId), before);
  });

  it('names, among several changes named, only the later ones on records of a named change before them', async () => {
    const { productId, ids } = setup;
    const edit = async (spotId: string | undefined, name: string) => {
      assertOk(await api.call('update_spot', { spotId, name }));
      return (await latestChange(api, productId)).changeId;
    };
    await edit(ids.spot, 'Edited before them all');
    const before = await wholeGuide(suite.h, productId);
    const first = await edit(ids.spot2, 'First named');
    const between = await edit(ids.spot2, 'Not named, on the first one’s spot');
    const last = await edit(ids.spot, 'Last named, on a spot edited before the first');
    const refused = await api.call('undo_changes', { productId, changeIds: [last, first] });
    assertError(refused, 'stale_editor');
    if (t === 'rest') assert.deepEqual(refused.body.error.details, { changeIds: [between] });
    assertOk(await api.call('undo_changes', { productId, changeIds: [first, between, last] }));
    assert.deepEqual(await wholeGuide(suite.h, productId), before);
  });

  it('lets a change be undone once a later change to its records was undone itself', async () => {
    const { productId, ids } = setup;
    const before = await wholeGuide(suite.h, productId);
    assertOk(await api.call('update_spot', { spotId: ids.spot2, name: 'Kept a moment' }));
    const first = await latestChange(api, productId);
    assertOk(await api.call('update_spot', { spotId: ids.spot2, name: 'Taken back' }));
    const second = await latestChange(api, productId);
    assertOk(await api.call('undo_changes', { productId, changeIds: [second.changeId] }));
    const listed = await api.call('list_changes', { productId, limit: 3 });
    const [, undone] = listed.body.changes;
    assert.equal(undone.changeId, second.changeId);
    assert.equal(undone.undoable, false);
    assert.equal(typeof undone.undoneBy, 'string');
    assertError(await api.call('undo_changes', { productId, changeIds: [second.changeId] }), 'invalid_request');
    assertOk(await api.call('undo_changes', { productId, changeIds: [first.changeId] }));
    assert.deepEqual(await wholeGuide(suite.h, productId), before);
  });

  it('removes what pointed at a created record when its creation is undone, and brings it all back on redo', async () => {
    const { productId } = setup;
    const before = await wholeGuide(suite.h, productId);
    const spot = await api.call('create_spot', { productId, name: 'Savica waterfall' });
    assertOk(spot, 201);
    const created = await latestChange(api, productId);
    const collection = await newChapter(api, productId, { name: 'Waterfalls' });
    assertOk(
      await api.call('set_chapter_members', {
        collectionId: collection.collectionId,
        members: [{ spotKey: spot.body.spotKey }],
      }),
    );
    const [members] = (await api.call('list_changes', { productId, limit: 1 })).body.changes;
    assert.deepEqual(members.records, [{ kind: 'chapter', id: collection.collectionId }]);
    // An itinerary names it by key in JSON no foreign key guards: the spot's references step clears it.
    const trip = await api.call('create_itinerary', { productId, name: 'Waterfall day' });
    assertOk(trip, 201);
    const days = [{ title: 'Day one', stops: [{ kind: 'spot', spotKey: spot.body.spotKey }] }];
    assertOk(await api.call('set_itinerary_days', { itineraryId: trip.body.itineraryId, days }));
    const withMember = await wholeGuide(suite.h, productId);
    // The membership is a change of the chapter, not of the spot: the spot's creation undoes alone.
    const undo = await api.call('undo_changes', { productId, changeIds: [created.changeId] });
    assertOk(undo);
    const chapters = await api.call('list_chapters', { productId });
    const waterfalls = chapters.body.chapters.find((c: any) => c.collectionId === collection.collectionId);
    assert.ok(waterfalls, 'the collection stays');
    assert.equal(JSON.stringify(waterfalls).includes(spot.body.spotId), false, 'no member points at the removed spot');
    assertError(await api.call('get_spot', { spotId: spot.body.spotId }), 'not_found');
    await assertNoDanglingStops(api, productId);
    const day = (await api.call('get_itinerary', { itineraryId: trip.body.itineraryId })).body.days[0];
    assert.deepEqual(day.stops, []);
    assertOk(await api.call('undo_changes', { productId, changeIds: [undo.body.changeId] }));
    assert.deepEqual(await wholeGuide(suite.h, productId), withMember);
    assert.notDeepEqual(withMember, before);
  });

  it('changes nothing when an undo is refused part-way through its list', async () => {
    const { productId, ids } = setup;
    assertOk(await api.call('update_spot', { spotId: ids.spot2, name: 'Would be undone' }));
    const update = await latestChange(api, productId);
    const spot = await api.call('create_spot', { productId, name: 'Deleted soon' });
    assertOk(spot, 201);
    assertOk(await api.call('delete_spot', { spotId: spot.body.spotId }));
    const deleted = await latestChange(api, productId);
    const before = await wholeGuide(suite.h, productId);
    const history = (await api.call('list_changes', { productId, limit: 200 })).body.total;
    const refused = await api.call('undo_changes', { productId, changeIds: [update.changeId, deleted.changeId] });
    assertError(refused, 'invalid_request', 'changeIds');
    assert.deepEqual(await wholeGuide(suite.h, productId), before);
    assert.equal((await api.call('list_changes', { productId })).body.total, history, 'a refused undo is no change');
  });

  it('lists a delete as not undoable and refuses to undo it', async () => {
    const { productId } = setup;
    const spot = await api.call('create_spot', { productId, name: 'Short-lived' });
    assertOk(spot, 201);
    assertOk(await api.call('delete_spot', { spotId: spot.body.spotId }));
    const deleted = await latestChange(api, productId);
    assert.equal(deleted.operation, 'delete_spot');
    assert.equal(deleted.undoable, false);
    const before = await wholeGuide(suite.h, productId);
    const refused = await api.call('undo_changes', { productId, changeIds: [deleted.changeId] });
    assertError(refused, 'invalid_request', 'changeIds');
    assert.match(refused.body.error.message, /deleting is permanent/);
    assert.deepEqual(await wholeGuide(suite.h, productId), before);
  });

  it('records nothing for a failed write or a read', async () => {
    const { productId, ids } = setup;
    const latest = await latestChange(api, productId);
    assertError(await api.call('update_spot', { spotId: ids.spot, name: '' }), 'invalid_request');
    assertOk(await api.call('get_spot', { spotId: ids.spot }));
    assert.equal((await latestChange(api, productId)).changeId, latest.changeId);
  });

  it("answers another creator's change ids 404, like missing ones", async () => {
    const { productId } = setup;
    const latest = await latestChange(api, productId);
    const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
    try {
      const bobsGuide = await newGuide(bob, 'Bob guide');
      assertError(await bob.call('undo_changes', { productId: bobsGuide, changeIds: [latest.changeId] }), 'not_found');
      assertError(await bob.call('list_changes', { productId }), 'not_found');
      assertError(await api.call('undo_changes', { productId, changeIds: ['chg_AAAAAAAAAAAAAAAA'] }), 'not_found');
    } finally {
      await bob.close();
    }
  });
});
