import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { assertNoDanglingStops, newGuide, type TripParts, threeDays, tripParts } from '../helpers/fixtures.ts';

await describeOverTransports('itineraries', (suite, t) => {
  const { apis } = suite;
  let p: TripParts;
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
  const create = async (name: string, extra: Record<string, unknown> = {}) => {
    const a = await call('create_itinerary', { productId: p.productId, name, ...extra });
    assertOk(a, 201);
    return a.body;
  };
  before(async () => {
    p = await tripParts(apis[t], await newGuide(apis[t], `${t} trips`));
  });

  it('create_itinerary with only a name: every default, at the end of the list', async () => {
    const it1 = await create('First trip');
    const { itineraryId, createdAt, updatedAt, order, ...rest } = it1;
    assert.match(itineraryId, /^it_/);
    assert.equal(updatedAt, createdAt);
    assert.deepEqual(rest, {
      productId: p.productId,
      name: 'First trip',
      description: null,
      body: null,
      coverMediaId: null,
      travelMode: null,
      season: null,
      startsAt: null,
      endsAt: null,
      days: [],
      archived: false,
    });
    const it2 = await create('Second trip');
    assert.ok(it2.order > order);
    const got = await call('get_itinerary', { itineraryId });
    assertOk(got);
    assert.deepEqual(got.body, it1);
  });

  it('create_itinerary refuses an empty name and a cover that is not a photo of this guide', async () => {
    assertError(await call('create_itinerary', { productId: p.productId, name: '' }), 'invalid_request', 'name');
    assertError(
      await call('create_itinerary', { productId: p.productId, name: 'x', coverMediaId: 'md_nope' }),
      'invalid_request',
      'coverMediaId',
    );
  });

  it('update_itinerary: PATCH rules, season normalized, archive and unarchive, stale_editor', async () => {
    const it0 = await create('Patch me', { description: 'Short', startsAt: 'Ljubljana' });
    const a = await call('update_itinerary', {
      itineraryId: it0.itineraryId,
      description: '',
      body: 'Bring cash',
      travelMode: 'campervan',
      season: { months: [9, 6, 6, 7], note: '' },
      expectedUpdatedAt: it0.updatedAt,
    });
    assertOk(a);
    assert.equal(a.body.description, null);
    assert.equal(a.body.startsAt, 'Ljubljana');
    assert.equal(a.body.body, 'Bring cash');
    assert.equal(a.body.travelMode, 'campervan');
    assert.deepEqual(a.body.season, { months: [6, 7, 9] });
    assert.ok(a.body.updatedAt > it0.updatedAt);
    // The last read's updatedAt is stale now: nothing written.
    const stale = await call('update_itinerary', {
      itineraryId: it0.itineraryId,
      name: 'Lost',
      expectedUpdatedAt: it0.updatedAt,
    });
    assertError(stale, 'stale_editor');
    assert.equal((await call('get_itinerary', { itineraryId: it0.itineraryId })).body.name, 'Patch me');
    const cleared = await call('update_itinerary', {
      itineraryId: it0.itineraryId,
      season: {},
      travelMode: null,
    });
    assertOk(cleared);
    assert.equal(cleared.body.season, null);
    assert.equal(cleared.body.travelMode, null);
    const archived = await call('update_itinerary', { itineraryId: it0.itineraryId, archived: true });
    assertOk(archived);
    assert.equal(archived.body.archived, true);
    assert.equal(archived.body.warnings, undefined, 'an archived trip is not told buyers cannot see it');
    const days = await call('set_itinerary_days', { itineraryId: it0.itineraryId, days: threeDays(p) });
    assertOk(days, 200);
    const back = await call('update_itinerary', { itineraryId: it0.itineraryId, archived: false });
    assertOk(back);
    assert.equal(back.body.archived, false);
    assert.equal(back.body.days.length, 3);
    assertError(
      await call('update_itinerary', { itineraryId: it0.itineraryId, name: '  ' }),
      'invalid_request',
      'name',
    );
    assertError(await call('update_itinerary', { itineraryId: it0.itineraryId, days: [] }), 'invalid_argument');
    assertError(
      await call('update_itinerary', { itineraryId: it0.itineraryId, description: 'x'.repeat(301) }),
      'invalid_request',
    );
  });

  it('update_itinerary warns when buyers could open no stop', async () => {
    const it0 = await create('Empty trip');
    const a = await call('update_itinerary', { itineraryId: it0.itineraryId, name: 'Still empty' });
    assertOk(a);
    assert.equal(a.body.warnings?.length, 1);
    assert.match(a.body.warnings[0], /no stop buyers can open/);
  });

  it('set_itinerary_days stores the days normalized and get_itinerary returns them as sent back', async () => {
    const it0 = await create('Three days');
    const a = await call('set_itinerary_days', {
      itineraryId: it0.itineraryId,
      days: threeDays(p),
      expectedUpdatedAt: it0.updatedAt,
      answer: 'full',
    });
    assertOk(a);
    assert.equal(a.body.warnings, undefined, JSON.stringify(a.body.warnings));
    // The first day as sent, but for its empty note: normalized away.
    const { note: emptyNote, ...firstDay } = threeDays(p)[0];
    assert.equal(emptyNote, '');
    assert.deepEqual(a.body.days[0], firstDay);
    assert.deepEqual(a.body.days[1].stops[0], { kind: 'spot', spotKey: p.spots[1], when: 'sunrise' });
    assert.deepEqual(a.body.days[2], { title: 'Home', stops: [{ kind: 'route', routeId: p.route }] });
    assert.ok(!JSON.stringify(a.body.days).includes('null'));
    // What get_itinerary returns goes back unchanged.
    const got = (await call('get_itinerary', { itineraryId: it0.itineraryId })).body;
    const again = await call('set_itinerary_days', {
      itineraryId: it0.itineraryId,
      days: got.days,
      expectedUpdatedAt: got.updatedAt,
      answer: 'full',
    });
    assertOk(again);
    assert.deepEqual(again.body.days, got.days);
    assert.ok(again.body.updatedAt > got.updatedAt);
    assertError(
      await call('set_itinerary_days', {
        itineraryId: it0.itineraryId,
        days: [],
        expectedUpdatedAt: got.updatedAt,
      }),
      'stale_editor',
    );
    assert.equal((await call('get_itinerary', { itineraryId: it0.itineraryId })).body.days.length, 3);
  });

  it('set_itinerary_days refuses what is not of this guide, naming the path, and writes nothing', async () => {
    const it0 = await create('Refusals');
    const other = await tripParts(apis[t], await newGuide(apis[t], 'Another guide'));
    const days = threeDays(p);
    const cases: Array<[string, (d: any[]) => void]> = [
      [
        'days[1].stops[0].spotKey',
        (d) => {
          d[1].stops[0].spotKey = 'no-such-spot';
        },
      ],
      [
        'days[0].stops[1].spotKey',
        (d) => {
          d[0].stops[1].spotKey = other.spots[0] === p.spots[0] ? 'missing-key' : other.spots[0];
        },
      ],
      [
        'days[0].stops[2].facilityId',
        (d) => {
          d[0].stops[2].facilityId = other.food;
        },
      ],
      [
        'days[2].stops[0].routeId',
        (d) => {
          d[2].stops[0].routeId = other.route;
        },
      ],
      [
        'days[1].stops[1].routeId',
        (d) => {
          d[1].stops[1].routeId = other.hike;
        },
      ],
      [
        'days[0].overnight.facilityId',
        (d) => {
          d[0].overnight.facilityId = other.hut;
        },
      ],
      [
        'days[1].stops[2]',
        (d) => {
          d[1].stops[2] = { kind: 'note', title: ' ', note: '' };
        },
      ],
      [
        'days[0].overnight',
        (d) => {
          d[0].overnight = { note: 'Somewhere' };
        },
      ],
    ];
    for (const [path, change] of cases) {
      const d = structuredClone(days);
      change(d);
      assertError(await call('set_itinerary_days', { itineraryId: it0.itineraryId, days: d }), 'invalid_request', path);
    }
    assertError(
      await call('set_itinerary_days', {
        itineraryId: it0.itineraryId,
        days: [{ stops: [{ kind: 'spot', spotKey: p.spots[0], when: 'noon' }] }],
      }),
      'invalid_argument',
    );
    assertError(
      await call('set_itinerary_days', { itineraryId: it0.itineraryId, days: [{ stops: [{ kind: 'ferry' }] }] }),
      'invalid_argument',
    );
    assert.deepEqual((await call('get_itinerary', { itineraryId: it0.itineraryId })).body.days, []);
  });

  it('set_itinerary_days bounds: 60 days of 30 stops, no more', async () => {
    const it0 = await create('Long trip');
    const day = { stops: Array.from({ length: 30 }, () => ({ kind: 'spot', spotKey: p.spots[0] })) };
    assertOk(
      await call('set_itinerary_days', {
        itineraryId: it0.itineraryId,
        days: Array(60).fill({ stops: day.stops.slice(0, 1) }),
      }),
    );
    assertOk(await call('set_itinerary_days', { itineraryId: it0.itineraryId, days: [day] }));
    assertError(
      await call('set_itinerary_days', { itineraryId: it0.itineraryId, days: Array(61).fill({ stops: [] }) }),
      'invalid_request',
    );
    assertError(
      await call('set_itinerary_days', {
        itineraryId: it0.itineraryId,
        days: [{ stops: [...day.stops, day.stops[0]] }],
      }),
      'invalid_request',
    );
    assertError(
      await call('set_itinerary_days', {
        itineraryId: it0.itineraryId,
        days: [{ title: 'x'.repeat(121), stops: [] }],
      }),
      'invalid_request',
    );
  });

  it('set_itinerary_days warns about what an assistant can fix', async () => {
    const it0 = await create('Warnings');
    const archivedSpot = await call('create_spot', {
      productId: p.productId,
      name: 'Closed cave',
      archived: true,
    });
    assertOk(archivedSpot, 201);
    const a = await call('set_itinerary_days', {
      itineraryId: it0.itineraryId,
      days: [
        {
          stops: [
            { kind: 'spot', spotKey: archivedSpot.body.spotKey },
            { kind: 'travel', mode: 'bus', from: 'Bled ', to: 'bled' },
          ],
          overnight: { facilityId: p.food },
        },
        { title: 'Rest day', stops: [] },
      ],
    });
    assertOk(a);
    const w = a.body.warnings as string[];
    assert.ok(
      w.some((m) => m.startsWith('days[0].stops[0].spotKey:') && m.includes('archived')),
      JSON.stringify(w),
    );
    assert.ok(
      w.some((m) => m.startsWith('days[0].stops[1]:') && m.includes('from and to')),
      JSON.stringify(w),
    );
    assert.ok(
      w.some((m) => m.startsWith('days[0].overnight.facilityId:') && m.includes('not a stay')),
      JSON.stringify(w),
    );
    assert.ok(
      w.some((m) => m.startsWith('days[1]:') && m.includes('no stops')),
      JSON.stringify(w),
    );
    assert.ok(
      w.some((m) => m.includes('no stop buyers can open')),
      JSON.stringify(w),
    );
    assert.equal(w.length, 5);
  });

  it('reorder_itinerary moves one row between neighbours', async () => {
    const g = await newGuide(apis[t], 'Order');
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      const a = await call('create_itinerary', { productId: g, name });
      ids.push(a.body.itineraryId);
    }
    const names = async () =>
      (await call('list_itineraries', { productId: g })).body.itineraries.map((i: any) => i.name);
    const before = (await call('list_itineraries', { productId: g })).body.itineraries;
    const a = await call('reorder_itinerary', { itineraryId: ids[2], previousId: ids[0] });
    assertOk(a);
    assert.deepEqual(a.body, { ok: true, itineraryId: ids[2] });
    assert.deepEqual(await names(), ['A', 'C', 'B']);
    const after = (await call('list_itineraries', { productId: g })).body.itineraries;
    for (const i of [0, 1]) {
      const id = ids[i];
      assert.deepEqual(
        after.find((x: any) => x.itineraryId === id),
        before.find((x: any) => x.itineraryId === id),
        'others untouched',
      );
    }
    assertOk(await call('reorder_itinerary', { itineraryId: ids[0], nextId: ids[1] }));
    assert.deepEqual(await names(), ['C', 'A', 'B']);
    assertOk(await call('reorder_itinerary', { itineraryId: ids[2] }));
    assert.deepEqual(await names(), ['A', 'B', 'C']);
    assertError(
      await call('reorder_itinerary', { itineraryId: ids[0], previousId: ids[0] }),
      'invalid_request',
      'previousId',
    );
    assertError(
      await call('reorder_itinerary', { itineraryId: ids[0], previousId: ids[1], nextId: ids[1] }),
      'invalid_request',
    );
    // Many moves into the same gap run out of halving room; the list stays in order.
    for (let i = 0; i < 60; i++) {
      assertOk(await call('reorder_itinerary', { itineraryId: ids[i % 2 === 0 ? 2 : 1], previousId: ids[0] }));
    }
    assert.equal((await names())[0], 'A');
  });

  it('delete_itinerary removes it for good; spots, places and routes stay', async () => {
    const it0 = await create('Gone soon');
    assertOk(await call('set_itinerary_days', { itineraryId: it0.itineraryId, days: threeDays(p) }));
    const a = await call('delete_itinerary', { itineraryId: it0.itineraryId });
    assertOk(a);
    assert.deepEqual(a.body, { ok: true, itineraryId: it0.itineraryId, deleted: true });
    assertError(await call('get_itinerary', { itineraryId: it0.itineraryId }), 'not_found');
    assertError(await call('delete_itinerary', { itineraryId: it0.itineraryId }), 'not_found');
    assert.equal((await call('get_spot', { spotId: p.spotIds[0] })).ok, true);
  });

  it('deleting a spot, place, route or hike removes the stops naming it; an overnight keeps the name', async () => {
    const g = await tripParts(apis[t], await newGuide(apis[t], 'Cascade'));
    const a = await call('create_itinerary', { productId: g.productId, name: 'Cascade trip' });
    const id = a.body.itineraryId;
    assertOk(await call('set_itinerary_days', { itineraryId: id, days: threeDays(g) }));
    await assertNoDanglingStops(apis[t], g.productId);
    const stopsOf = async () => (await call('get_itinerary', { itineraryId: id })).body.days;
    assertOk(await call('delete_spot', { spotId: g.spotIds[0] }));
    await assertNoDanglingStops(apis[t], g.productId);
    assertOk(await call('delete_facility', { facilityId: g.hut }));
    assertOk(await call('delete_facility', { facilityId: g.food }));
    await assertNoDanglingStops(apis[t], g.productId);
    assertOk(await call('delete_hike', { hikeId: g.hike }));
    assertOk(await call('delete_route', { routeId: g.route }));
    await assertNoDanglingStops(apis[t], g.productId);
    const days = await stopsOf();
    assert.deepEqual(days[0], {
      title: 'Lake Bled',
      stops: [{ kind: 'travel', mode: 'car', from: 'Ljubljana', to: 'Bled', when: 'morning' }],
      overnight: { name: 'Planina Hut', note: 'Book ahead' },
    });
    assert.deepEqual(days[1].stops, [
      { kind: 'spot', spotKey: g.spots[1], when: 'sunrise' },
      { kind: 'note', title: 'Water', note: 'Fill up at the hut' },
    ]);
    assert.deepEqual(days[2], { title: 'Home', stops: [] });
  });
});
