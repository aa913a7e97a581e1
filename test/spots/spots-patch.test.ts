import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { newGuide } from '../helpers/fixtures.ts';

/** Every editable field set, as a create_spot body. */
const fullSpot = {
  description: 'A green lake under the Seekofel.',
  lat: 46.6,
  lon: 12.3,
  pins: [{ kind: 'viewpoint', label: 'North shore', lat: 46.61, lon: 12.31, months: [6, 7, 8] }],
  mapLinks: [{ label: 'OSM', url: 'https://www.openstreetmap.org/#map=15/46.6/12.3' }],
  links: [{ kind: 'official', url: 'https://example.com/braies' }],
  status: { state: 'partly_closed', note: 'Path works', since: '2026-10-01', until: '2026-12-01' },
  fees: [{ label: 'Parking', amount: 40, currency: 'EUR', per: 'vehicle' }],
  schedule: { hours: [{ open: '08:00', close: '18:00' }] },
  hours: 'Daylight hours',
  sources: [{ url: 'https://example.com/source', kind: 'page' }],
  reviewNotes: 'Check the parking fee',
  factsCheckedOn: '2026-11-01',
  reviewBy: '2027-05-01',
};

await describeOverTransports('spots: update_spot PATCH semantics', (suite, t) => {
  const { apis } = suite;
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
  let productId: string;
  before(async () => {
    productId = await newGuide(apis[t], `${t} Patch`);
    for (const [label, kind, extra] of [
      ['Colour', 'shortLabel', {}],
      ['Depth', 'number', { numUnit: 'm' }],
      ['Season', 'checkbox', { options: [{ label: 'Summer' }, { label: 'Winter' }] }],
    ] as const) {
      assertOk(await call('create_property', { productId, label, kind, ...extra }), 201);
    }
  });
  const full = async (name: string) => {
    const a = await call('create_spot', { productId, name, ...fullSpot });
    assertOk(a, 201);
    return a.body;
  };
  const update = async (spotId: string, fields: Record<string, unknown>) => {
    const a = await call('update_spot', { spotId, ...fields });
    assertOk(a);
    const got = await call('get_spot', { spotId });
    assert.deepEqual(got.body, a.body, 'update_spot answers what get_spot reads');
    return a.body;
  };

  it('create_spot stores every field as sent', async () => {
    const s = await full('Lago di Braies');
    for (const [field, value] of Object.entries(fullSpot)) assert.deepEqual(s[field], value, field);
    assert.equal(s.timeZone, 'Europe/Rome');
  });

  it('changes only the fields sent', async () => {
    const s = await full('Only sent');
    suite.h.clock.advance(1000);
    const u = await update(s.spotId, { hours: 'Dawn to dusk' });
    const { hours, updatedAt, ...rest } = u;
    assert.equal(hours, 'Dawn to dusk');
    assert.equal(updatedAt, suite.h.clock.now());
    const { hours: _h, updatedAt: _u, ...before } = s;
    assert.deepEqual(rest, before);
    // An empty PATCH changes nothing but the stamp.
    const same = await update(s.spotId, {});
    assert.deepEqual({ ...same, updatedAt: 0 }, { ...u, updatedAt: 0 });
  });

  it('"" clears description, hours, reviewNotes, factsCheckedOn and reviewBy; never the name', async () => {
    const s = await full('Clears');
    const fields = ['description', 'hours', 'reviewNotes', 'factsCheckedOn', 'reviewBy'];
    const u = await update(s.spotId, Object.fromEntries(fields.map((f) => [f, ''])));
    for (const f of fields) assert.equal(u[f], null, f);
    assert.equal(u.name, 'Clears');
    assert.deepEqual(u.fees, fullSpot.fees, 'fields not sent stay');
    assertError(await call('update_spot', { spotId: s.spotId, name: '' }), 'invalid_request', 'name');
    assertError(
      await call('update_spot', { spotId: s.spotId, factsCheckedOn: '2026-02-30' }),
      'invalid_request',
      'factsCheckedOn',
    );
    assertError(await call('update_spot', { spotId: s.spotId, description: null }), 'invalid_argument');
  });

  it('null clears status, schedule and areaId; a non-null areaId names no area yet', async () => {
    const s = await full('Nulls');
    const u = await update(s.spotId, { status: null, schedule: null, areaId: null });
    assert.equal(u.status, null);
    assert.equal(u.schedule, null);
    assert.equal(u.areaId, null);
    assert.deepEqual(u.pins, fullSpot.pins);
    assertError(await call('update_spot', { spotId: s.spotId, areaId: 'area_nope' }), 'invalid_request', 'areaId');
    assertError(
      await call('create_spot', { productId, name: 'In area', areaId: 'area_nope' }),
      'invalid_request',
      'areaId',
    );
    const listed = await call('list_spots', { productId, includeArchived: true });
    assert.equal(
      listed.body.spots.some((x: { name: string }) => x.name === 'In area'),
      false,
    );
  });

  it('arrays are full replacements; [] empties them', async () => {
    const s = await full('Arrays');
    const pins = [
      { kind: 'parking', label: 'P1', lat: 46.7, lon: 12.2 },
      { kind: 'trailhead', label: 'Start', lat: 46.71, lon: 12.21, note: 'Sign 1' },
    ];
    const fees = [{ label: 'Entry', free: true }];
    const u = await update(s.spotId, { pins, fees, links: [] });
    assert.deepEqual(u.pins, pins);
    assert.deepEqual(u.fees, fees);
    assert.deepEqual(u.links, []);
    assert.deepEqual(u.sources, fullSpot.sources);
    const v = await update(s.spotId, { pins: [], mapLinks: [], sources: [], fees: [] });
    for (const f of ['pins', 'mapLinks', 'sources', 'fees']) assert.deepEqual(v[f], [], f);
  });

  it('lat and lon come together and set the time zone; null clears pin and zone', async () => {
    const s = await full('Pin');
    assert.equal(s.timeZone, 'Europe/Rome');
    const ny = await update(s.spotId, { lat: 40.7, lon: -74.0 });
    assert.deepEqual([ny.lat, ny.lon, ny.timeZone], [40.7, -74, 'America/New_York']);
    assertError(await call('update_spot', { spotId: s.spotId, lat: 46.6 }), 'invalid_request', 'lon');
    assertError(await call('update_spot', { spotId: s.spotId, lon: 12.3 }), 'invalid_request', 'lat');
    assertError(await call('create_spot', { productId, name: 'Half pin', lat: 46.6 }), 'invalid_request', 'lon');
    assertError(await call('update_spot', { spotId: s.spotId, lat: 91, lon: 0 }), 'invalid_request', 'lat');
    assertError(await call('update_spot', { spotId: s.spotId, lat: 0, lon: -181 }), 'invalid_request', 'lon');
    assertError(await call('update_spot', { spotId: s.spotId, lat: '46', lon: 12 }), 'invalid_argument', 'lat');
    assert.equal((await call('get_spot', { spotId: s.spotId })).body.timeZone, 'America/New_York');
    const cleared = await update(s.spotId, { lat: null, lon: null });
    assert.deepEqual([cleared.lat, cleared.lon, cleared.timeZone], [null, null, null]);
    await update(s.spotId, { lat: 46.6, lon: 12.3 });
    const one = await update(s.spotId, { lat: null });
    assert.deepEqual([one.lat, one.lon, one.timeZone], [null, null, null], 'null in either clears the pin');
    const tokyo = await update(s.spotId, { lat: 35.68, lon: 139.69 });
    assert.equal(tokyo.timeZone, 'Asia/Tokyo');
  });

  it('customValues and customNotes merge by key; null removes one', async () => {
    const s = await full('Custom');
    const a = await update(s.spotId, {
      customValues: { colour: 'emerald', depth: 36, season: ['summer'] },
      customNotes: { colour: 'After rain', depth: 'Max depth' },
    });
    assert.deepEqual(a.customValues, { colour: 'emerald', depth: 36, season: ['summer'] });
    assert.deepEqual(a.customNotes, { colour: 'After rain', depth: 'Max depth' });
    const b = await update(s.spotId, { customValues: { depth: 40 }, customNotes: { depth: 'Surveyed' } });
    assert.deepEqual(b.customValues, { colour: 'emerald', depth: 40, season: ['summer'] });
    assert.deepEqual(b.customNotes, { colour: 'After rain', depth: 'Surveyed' });
    const c = await update(s.spotId, { customValues: { colour: null, season: [] }, customNotes: { colour: '' } });
    assert.deepEqual(c.customValues, { depth: 40 });
    assert.deepEqual(c.customNotes, { depth: 'Surveyed' });
    const d = await update(s.spotId, { customNotes: { depth: null } });
    assert.deepEqual(d.customNotes, {});
    assert.deepEqual(d.customValues, { depth: 40 });
    assertError(
      await call('update_spot', { spotId: s.spotId, customValues: { nope: 1 } }),
      'invalid_request',
      'customValues.nope',
    );
    assertError(
      await call('update_spot', { spotId: s.spotId, customNotes: { nope: 'x' } }),
      'invalid_request',
      'customNotes.nope',
    );
    assertError(
      await call('update_spot', { spotId: s.spotId, customNotes: { depth: 'n'.repeat(1001) } }),
      'invalid_request',
      'customNotes.depth',
    );
    assertError(
      await call('update_spot', { spotId: s.spotId, customNotes: { depth: 5 } }),
      'invalid_argument',
      'customNotes.depth',
    );
    assert.deepEqual((await call('get_spot', { spotId: s.spotId })).body, d, 'refusals wrote nothing');
  });

  it('the spotKey is immutable: the same key is accepted, another refused', async () => {
    const s = await full('Immutable');
    const same = await update(s.spotId, { spotKey: 'immutable', description: 'x' });
    assert.equal(same.spotKey, 'immutable');
    assert.equal(same.description, 'x');
    const other = await call('update_spot', { spotId: s.spotId, spotKey: 'renamed', description: 'y' });
    assertError(other, 'invalid_request', 'spotKey');
    const got = (await call('get_spot', { spotId: s.spotId })).body;
    assert.equal(got.spotKey, 'immutable');
    assert.equal(got.description, 'x');
    // Renaming never moves the key.
    assert.equal((await update(s.spotId, { name: 'A new name' })).spotKey, 'immutable');
  });

  it('sub-object refusals name their path; unknown fields are invalid_argument', async () => {
    const s = await full('Paths');
    const cases: Array<[Record<string, unknown>, 'invalid_argument' | 'invalid_request', string]> = [
      [{ fees: [{ label: 'Fee', amount: 5 }] }, 'invalid_request', 'fees[0].currency'],
      [{ pins: [{ kind: 'volcano', label: 'x', lat: 1, lon: 1 }] }, 'invalid_argument', 'pins[0].kind'],
      [{ mapLinks: [{ label: 'x', url: 'http://example.com' }] }, 'invalid_request', 'mapLinks[0].url'],
      [{ status: { state: 'open', since: '2026-05-01', until: '2026-04-01' } }, 'invalid_request', 'status.until'],
      [{ schedule: { hours: [{ open: '08:00' }] } }, 'invalid_request', 'schedule.hours[0].close'],
      [{ pins: Array.from({ length: 13 }, () => fullSpot.pins[0]) }, 'invalid_request', 'pins'],
      [{ hours: 'h'.repeat(501) }, 'invalid_request', 'hours'],
      [{ archived: 'yes' }, 'invalid_argument', 'archived'],
      [{ nickname: 'x' }, 'invalid_argument', 'nickname'],
      [{ description: 'nul \u0000 byte' }, 'invalid_request', 'description'],
      [{ fees: [{ label: 'nul \u0000', free: true }] }, 'invalid_request', 'fees[0].label'],
      [{ customValues: { colour: 'nul \u0000' } }, 'invalid_request', 'customValues.colour'],
    ];
    for (const [fields, code, path] of cases) {
      assertError(await call('update_spot', { spotId: s.spotId, ...fields }), code, path);
    }
    assert.deepEqual((await call('get_spot', { spotId: s.spotId })).body, s);
  });
});
