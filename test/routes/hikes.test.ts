import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { newGuide } from '../helpers/fixtures.ts';

/** A hike with every field update_hike lists, set. */
const fullHike = {
  name: 'Seceda ridge loop',
  description: 'Up by the cable car, back through the meadows.',
  difficulty: 'moderate',
  distanceKm: 9.5,
  durationMin: 240,
  gainM: 650,
  descentM: 640,
  grade: 'T2',
  start: 'Ortisei, Seceda cable car valley station',
  startMapsUrl: 'https://maps.google.com/?q=46.5756,11.6717',
  equipment: ['poles', 'rain jacket'],
  sources: ['https://www.valgardena.it/seceda', 'Tourist office leaflet 2026'],
  transit: [
    { mode: 'bus', note: 'Line 350 from Bolzano to Ortisei' },
    { mode: 'cable_car', note: 'Ortisei–Furnes–Seceda' },
  ],
};

await describeOverTransports('hikes: create, list, update, delete', ({ apis }, t) => {
  let productId: string;
  before(async () => {
    productId = await newGuide(apis[t], `${t} hikes`);
  });
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
  const read = async (hikeId: string, includeTrack = false) => {
    const a = await call('list_hikes', { productId, includeTrack });
    assertOk(a);
    assert.equal(a.body.count, a.body.hikes.length);
    return a.body.hikes.find((h: any) => h.hikeId === hikeId);
  };
  const create = async (args: Record<string, unknown>) => {
    const a = await call('create_hike', { productId, ...args });
    assertOk(a, 201);
    return a.body;
  };
  const update = (hikeId: string, args: Record<string, unknown>) => call('update_hike', { hikeId, ...args });

  it('create_hike with only a name: 201 with every default', async () => {
    const hike = await create({ name: 'Short walk' });
    const { hikeId, createdAt, updatedAt, ...rest } = hike;
    assert.match(hikeId, /^hk_/);
    assert.equal(updatedAt, createdAt);
    assert.deepEqual(rest, {
      productId,
      name: 'Short walk',
      description: null,
      difficulty: null,
      distanceKm: null,
      durationMin: null,
      gainM: null,
      descentM: null,
      grade: null,
      start: null,
      startMapsUrl: null,
      equipment: null,
      transit: [],
      sources: [],
      trackFigures: null,
      spotKeys: [],
      facilities: [],
    });
    assert.deepEqual(await read(hikeId), hike);
    assertError(await call('create_hike', { productId }), 'invalid_argument', 'name');
    assertError(await call('create_hike', { productId, name: '' }), 'invalid_request', 'name');
  });

  it('every field reads back as sent', async () => {
    const hike = await create(fullHike);
    for (const [field, value] of Object.entries(fullHike)) assert.deepEqual(hike[field], value, field);
    assert.equal(hike.warnings, undefined);
  });

  it('update_hike answers ok and hikeId; only the fields sent change', async () => {
    const hike = await create(fullHike);
    const a = await update(hike.hikeId, { grade: 'T3' });
    assertOk(a);
    assert.deepEqual(a.body, { ok: true, hikeId: hike.hikeId });
    const after = await read(hike.hikeId);
    assert.deepEqual({ ...after, updatedAt: 0 }, { ...hike, grade: 'T3', updatedAt: 0 });
    assert.ok(after.updatedAt > hike.updatedAt);
  });

  it('strings clear on ""; difficulty, figures, equipment and track clear on null', async () => {
    const hike = await create({
      ...fullHike,
      track: {
        points: [
          [11.67, 46.57, 1200],
          [11.7, 46.6, 2500],
        ],
      },
    });
    assert.ok(hike.trackFigures);
    assertOk(
      await update(hike.hikeId, {
        description: '',
        grade: '',
        start: '',
        startMapsUrl: '',
        difficulty: null,
        distanceKm: null,
        durationMin: null,
        gainM: null,
        descentM: null,
        equipment: null,
        track: null,
      }),
    );
    const after = await read(hike.hikeId, true);
    for (const field of ['description', 'grade', 'start', 'startMapsUrl', 'difficulty', 'equipment']) {
      assert.equal(after[field], null, field);
    }
    for (const field of ['distanceKm', 'durationMin', 'gainM', 'descentM', 'trackFigures']) {
      assert.equal(after[field], null, field);
    }
    assert.equal(after.track, undefined);
    assert.equal(after.name, fullHike.name);
    assert.deepEqual(after.transit, fullHike.transit);
  });

  it('strings do not clear on null: that is a type error', async () => {
    const hike = await create({ name: 'Nulls' });
    assertError(await update(hike.hikeId, { description: null }), 'invalid_argument', 'description');
    assertError(await update(hike.hikeId, { sources: null }), 'invalid_argument', 'sources');
  });

  it('equipment [] means no special gear, apart from null (unknown)', async () => {
    const hike = await create({ name: 'Gear' });
    assertOk(await update(hike.hikeId, { equipment: [] }));
    assert.deepEqual((await read(hike.hikeId)).equipment, []);
    assertOk(await update(hike.hikeId, { equipment: null }));
    assert.equal((await read(hike.hikeId)).equipment, null);
  });

  it('transit rows with an empty note are dropped; the list replaces whole', async () => {
    const hike = await create(fullHike);
    assertOk(
      await update(hike.hikeId, {
        transit: [
          { mode: 'train', note: '' },
          { mode: 'ferry', note: '   ' },
          { mode: 'plane', note: 'Fly to Innsbruck' },
        ],
      }),
    );
    assert.deepEqual((await read(hike.hikeId)).transit, [{ mode: 'plane', note: 'Fly to Innsbruck' }]);
    assertError(await update(hike.hikeId, { transit: [{ mode: 'rocket', note: 'x' }] }), 'invalid_argument');
  });

  it('descentM is never derived from gainM', async () => {
    const hike = await create({ name: 'Climb only', gainM: 800 });
    assert.equal(hike.descentM, null);
    assertOk(await update(hike.hikeId, { gainM: 900 }));
    const after = await read(hike.hikeId);
    assert.equal(after.gainM, 900);
    assert.equal(after.descentM, null);
  });

  it('name "" clears it, with a warning', async () => {
    const hike = await create({ name: 'Nameless soon' });
    const a = await update(hike.hikeId, { name: '' });
    assertOk(a);
    assert.ok(
      a.body.warnings?.some((w: string) => w.startsWith('name was cleared')),
      a.body.warnings,
    );
    assert.equal((await read(hike.hikeId)).name, null);
  });

  it('startMapsUrl takes an allowlisted map host or a geo: URI only', async () => {
    const hike = await create({ name: 'Maps' });
    assertOk(await update(hike.hikeId, { startMapsUrl: 'geo:46.57,11.67' }));
    assertOk(await update(hike.hikeId, { startMapsUrl: 'https://www.openstreetmap.org/#map=15/46.57/11.67' }));
    assertError(
      await update(hike.hikeId, { startMapsUrl: 'https://example.com/map' }),
      'invalid_request',
      'startMapsUrl',
    );
    assertError(
      await update(hike.hikeId, { startMapsUrl: 'http://maps.google.com/?q=1,2' }),
      'invalid_request',
      'startMapsUrl',
    );
    assertError(await update(hike.hikeId, { startMapsUrl: 'geo:95,11' }), 'invalid_request', 'startMapsUrl');
    assert.equal((await read(hike.hikeId)).startMapsUrl, 'https://www.openstreetmap.org/#map=15/46.57/11.67');
  });

  it('every bound is refused as invalid_request naming the field, and writes nothing', async () => {
    const hike = await create({ name: 'Bounds' });
    const refused = async (args: Record<string, unknown>, path: string) =>
      assertError(await update(hike.hikeId, args), 'invalid_request', path);
    await refused({ equipment: Array.from({ length: 51 }, (_, i) => `item ${i}`) }, 'equipment');
    await refused({ sources: Array.from({ length: 26 }, (_, i) => `source ${i}`) }, 'sources');
    await refused({ transit: Array.from({ length: 21 }, () => ({ mode: 'bus', note: 'x' })) }, 'transit');
    await refused({ grade: 'x'.repeat(25) }, 'grade');
    await refused({ name: 'x'.repeat(121) }, 'name');
    for (const figure of ['distanceKm', 'durationMin', 'gainM', 'descentM']) await refused({ [figure]: -1 }, figure);
    await refused({ equipment: [''] }, 'equipment[0]');
    assertError(await update(hike.hikeId, { difficulty: 'extreme' }), 'invalid_argument', 'difficulty');
    assertError(await update(hike.hikeId, { colour: 'red' }), 'invalid_argument');
    // At the bounds: accepted.
    assertOk(
      await update(hike.hikeId, {
        equipment: Array.from({ length: 50 }, (_, i) => `item ${i}`),
        sources: Array.from({ length: 25 }, (_, i) => `source ${i}`),
        transit: Array.from({ length: 20 }, () => ({ mode: 'bus', note: 'x' })),
        grade: 'x'.repeat(24),
        gainM: 0,
      }),
    );
  });

  it('delete_hike removes it for good', async () => {
    const hike = await create({ name: 'Gone soon' });
    const a = await call('delete_hike', { hikeId: hike.hikeId });
    assertOk(a);
    assert.deepEqual(a.body, { ok: true, hikeId: hike.hikeId, deleted: true });
    assert.equal(await read(hike.hikeId), undefined);
    assertError(await call('delete_hike', { hikeId: hike.hikeId }), 'not_found');
    assertError(await update(hike.hikeId, { name: 'x' }), 'not_found');
  });
});
