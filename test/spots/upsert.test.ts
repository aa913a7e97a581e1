import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, describeOverTransports } from '../helpers/api.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';

await describeOverTransports('spots: upsert_spots', (suite, t) => {
  const { apis } = suite;
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
  const upsert = (productId: string, spots: unknown[]) => call('upsert_spots', { productId, spots });
  const everything = async (productId: string) => {
    const a = await call('list_spots', { productId, includeArchived: true });
    assertOk(a);
    return a.body.spots;
  };
  /** A guide with two spots (a, b; b archived) and a checkbox property. */
  const seeded = async (name: string) => {
    const productId = await newGuide(apis[t], `${t} ${name}`);
    assertOk(
      await call('create_property', {
        productId,
        label: 'Season',
        kind: 'checkbox',
        options: [{ label: 'Summer' }, { label: 'Winter' }],
      }),
      201,
    );
    assertOk(await call('create_spot', { productId, name: 'Spot A', spotKey: 'a', hours: '9-5' }), 201);
    assertOk(await call('create_spot', { productId, name: 'Spot B', spotKey: 'b', archived: true }), 201);
    return { productId, before: await everything(productId), guide: await guideOf(apis[t], productId) };
  };
  /** The guide exactly as before a refused batch: same spots, same count, same stamps. */
  const unchanged = async (seed: Awaited<ReturnType<typeof seeded>>) => {
    assert.deepEqual(await everything(seed.productId), seed.before);
    const g = await guideOf(apis[t], seed.productId);
    assert.equal(g.spotCount, seed.guide.spotCount);
    assert.equal(g.lastApiWriteAt, seed.guide.lastApiWriteAt);
  };

  it('creates and updates in one call; answers in the order sent', async () => {
    const seed = await seeded('Mix');
    suite.h.clock.set('2026-12-10T10:00:00Z');
    const a = await upsert(seed.productId, [
      { spotKey: 'new-1', name: 'New one', lat: 46.6, lon: 12.3 },
      { spotKey: 'b', description: 'Now described' },
      { spotKey: 'new-2', name: 'New two', customValues: { season: ['winter'] } },
      { spotKey: 'a', hours: '', customValues: { season: ['summer', 'winter'] } },
    ]);
    assertOk(a);
    assert.equal(a.body.productId, seed.productId);
    assert.deepEqual(a.body.created, ['new-1', 'new-2']);
    assert.deepEqual(a.body.updated, ['b', 'a']);
    assert.deepEqual(a.body.unchanged, []);
    assert.deepEqual(
      a.body.spots.map((s: { spotKey: string }) => s.spotKey),
      ['new-1', 'b', 'new-2', 'a'],
    );
    // Compact by default: each key with its id, in the order sent; the records are read back.
    for (const s of a.body.spots) assert.deepEqual(Object.keys(s).sort(), ['spotId', 'spotKey']);
    const [n1, b, n2, sa] = await Promise.all(
      a.body.spots.map(async (s: { spotId: string }) => (await call('get_spot', { spotId: s.spotId })).body),
    );
    assert.equal(n1.timeZone, 'Europe/Rome');
    assert.equal(n1.createdAt, Date.parse('2026-12-10T10:00:00Z'));
    assert.deepEqual(n2.customValues, { season: ['winter'] });
    // Updates are PATCHes: what was not sent stays.
    assert.equal(b.description, 'Now described');
    assert.equal(b.archived, true);
    assert.equal(b.name, 'Spot B');
    assert.equal(sa.hours, null);
    assert.equal(sa.name, 'Spot A');
    assert.equal(sa.spotId, seed.before[0].spotId);
    const all = await everything(seed.productId);
    assert.deepEqual(
      all.map((s: { spotKey: string }) => s.spotKey),
      ['a', 'b', 'new-1', 'new-2'],
      'new spots come after the existing ones, in the order sent',
    );
    const g = await guideOf(apis[t], seed.productId);
    assert.equal(g.spotCount, 4);
    assert.equal(g.lastApiWriteAt, Date.parse('2026-12-10T10:00:00Z'));
    // A second batch of what is stored now creates nothing and writes nothing.
    suite.h.clock.set('2026-12-10T11:00:00Z');
    const again = await upsert(seed.productId, [
      { spotKey: 'new-1', name: 'New one' },
      { spotKey: 'new-2', name: 'New two, renamed' },
    ]);
    assert.deepEqual([again.body.created, again.body.updated, again.body.unchanged], [[], ['new-2'], ['new-1']]);
    assert.equal((await everything(seed.productId)).length, 4);
    assert.deepEqual((await call('get_spot', { spotId: n1.spotId })).body, n1, 'the unchanged spot was not written');
  });

  it('a key twice in one batch is refused naming the second index', async () => {
    const seed = await seeded('Twice');
    const a = await upsert(seed.productId, [
      { spotKey: 'x', name: 'X' },
      { spotKey: 'a', name: 'A' },
      { spotKey: 'x', name: 'X again' },
    ]);
    assertError(a, 'invalid_request', 'spots[2].spotKey');
    assert.match(a.body.error.message, /item 0/);
    await unchanged(seed);
  });

  it('takes 1 to 25 spots: 25 pass, 26 and 0 are refused', async () => {
    const seed = await seeded('Bounds');
    const batch = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ spotKey: `${prefix}-${i}`, name: `${prefix} ${i}` }));
    assertError(await upsert(seed.productId, batch(26, 'over')), 'invalid_request', 'spots');
    assertError(await upsert(seed.productId, []), 'invalid_request', 'spots');
    assertError(await call('upsert_spots', { productId: seed.productId }), 'invalid_argument', 'spots');
    await unchanged(seed);
    const ok = await upsert(seed.productId, batch(25, 'max'));
    assertOk(ok);
    assert.equal(ok.body.created.length, 25);
    assert.equal((await guideOf(apis[t], seed.productId)).spotCount, 27);
  });

  it('one bad item refuses the batch naming its index, and nothing is written', async () => {
    const seed = await seeded('Bad item');
    const good = [
      { spotKey: 'a', name: 'Changed A', hours: '' },
      { spotKey: 'c', name: 'C' },
      { spotKey: 'c2', name: 'C2' },
    ];
    const schemaBad = await upsert(seed.productId, [
      ...good,
      { spotKey: 'd', name: 'D', fees: [{ label: 'Entry', amount: 12 }] },
    ]);
    assertError(schemaBad, 'invalid_request', 'spots[3].fees[0].currency');
    await unchanged(seed);
    // Refusals found while writing (after earlier items were applied) roll back too.
    const writerBad: Array<[Record<string, unknown>, string]> = [
      [{ spotKey: 'd', name: 'D', lat: 46.6 }, 'spots[3].lon'],
      [{ spotKey: 'd', name: 'D', areaId: 'area_x' }, 'spots[3].areaId'],
      [{ spotKey: 'b', customValues: { season: ['autumn'] } }, 'spots[3].customValues.season[0]'],
      [{ spotKey: 'd', name: 'D', customValues: { nope: 'x' } }, 'spots[3].customValues.nope'],
      [{ spotKey: 'd', name: 'D', customNotes: { nope: 'x' } }, 'spots[3].customNotes.nope'],
    ];
    for (const [item, path] of writerBad) {
      assertError(await upsert(seed.productId, [...good, item]), 'invalid_request', path);
      await unchanged(seed);
    }
    assertError(
      await upsert(seed.productId, [...good, { spotKey: 'd', name: 'D', customValues: { season: 'summer' } }]),
      'invalid_argument',
      'spots[3].customValues.season',
    );
    await unchanged(seed);
  });

  it('creating needs a name, named by its index; a missing or malformed spotKey too', async () => {
    const seed = await seeded('Names');
    const refusals: Array<[Record<string, unknown>[], 'invalid_argument' | 'invalid_request', string]> = [
      [
        [
          { spotKey: 'a', description: 'fine' },
          { spotKey: 'fresh', hours: 'x' },
        ],
        'invalid_argument',
        'spots[1].name',
      ],
      [[{ spotKey: 'c', name: 'C' }, { name: 'No key' }], 'invalid_argument', 'spots[1].spotKey'],
      [
        [
          { spotKey: 'c', name: 'C' },
          { spotKey: 'Bad Key', name: 'B' },
        ],
        'invalid_request',
        'spots[1].spotKey',
      ],
      [[{ spotKey: 'c', name: 'C', extra: true }], 'invalid_argument', 'spots[0].extra'],
      [
        [
          { spotKey: 'c', name: 'C' },
          { spotKey: 'd', name: '' },
        ],
        'invalid_request',
        'spots[1].name',
      ],
    ];
    for (const [spots, code, path] of refusals) assertError(await upsert(seed.productId, spots), code, path);
    await unchanged(seed);
  });

  it("keys match only within the guide; another creator's guide is not_found", async () => {
    const seed = await seeded('Scope');
    const other = await newGuide(apis[t], `${t} Scope other`);
    const a = await upsert(other, [{ spotKey: 'a', name: 'Other A' }]);
    assertOk(a);
    assert.deepEqual(a.body.created, ['a']);
    await unchanged(seed);
    const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
    try {
      assertError(
        await bob.call('upsert_spots', { productId: seed.productId, spots: [{ spotKey: 'a', name: 'Mine' }] }),
        'not_found',
      );
    } finally {
      await bob.close();
    }
    await unchanged(seed);
  });
});
