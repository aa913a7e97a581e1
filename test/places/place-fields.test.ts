import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { type Answer, assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { fullPlace, newGuide } from '../helpers/fixtures.ts';

const warningsOf = (a: Answer): string[] => a.body.warnings ?? [];

await describeOverTransports('places: fields, sub-objects, warnings, PATCH', (suite, t) => {
  const { apis } = suite;
  let productId: string;
  let spare: string;
  before(async () => {
    productId = await newGuide(apis[t], `${t} place fields`);
    spare = (await create({ kind: 'hut', name: 'Spare' })).body.facilityId;
  });
  const create = (args: Record<string, unknown>) =>
    apis[t].call('create_facility', { productId, kind: 'hut', name: 'P', ...args });
  const update = (facilityId: string, args: Record<string, unknown>) =>
    apis[t].call('update_facility', { facilityId, ...args });
  /** Each value is accepted on create and on update and read back as `expect` (default: as sent). */
  const accepts = async (field: string, value: unknown, expect: unknown = value) => {
    const a = await create({ [field]: value });
    assertOk(a, 201);
    assert.deepEqual(a.body[field], expect, `${field}=${JSON.stringify(value)}`);
    const u = await update(spare, { [field]: value });
    assertOk(u);
    assert.deepEqual(u.body[field], expect);
    return a;
  };
  const refuses = async (field: string, value: unknown, code: 'invalid_request' | 'invalid_argument', path = field) => {
    assertError(await create({ [field]: value }), code, path);
    assertError(await update(spare, { [field]: value }), code, path);
  };

  it('stores every field as sent; unsent fields stay on update', async () => {
    suite.h.clock.set('2026-11-23T10:00:00Z');
    const a = await apis[t].call('create_facility', { productId, ...fullPlace });
    assertOk(a, 201);
    const { facilityId, createdAt, updatedAt, timeZone, spotKeys, insideId, warnings, ...rest } = a.body;
    assert.deepEqual(rest, fullPlace);
    assert.equal(timeZone, 'Europe/Ljubljana');
    assert.deepEqual([spotKeys, insideId], [[], null]);
    assert.equal(warnings.length, 1, 'only gatewayTown is worth a look');
    assert.match(warnings[0], /gatewayTown/);
    suite.h.clock.set('2026-11-24T10:00:00Z');
    const u = await update(facilityId, { name: 'Renamed ferry' });
    assertOk(u);
    assert.equal(u.body.updatedAt, Date.parse('2026-11-24T10:00:00Z'));
    assert.equal(u.body.createdAt, createdAt);
    const { warnings: _w, ...created } = a.body;
    const { warnings: _w2, ...updated } = u.body;
    assert.deepEqual({ ...updated, name: 'Lake ferry', updatedAt }, created);
  });

  it('PATCH: "" clears the stated strings, null clears nullable fields, arrays replace', async () => {
    const id = (await apis[t].call('create_facility', { productId, ...fullPlace })).body.facilityId;
    const cleared = (
      'operator description costRaw openRaw website mapsUrl osmId googlePlaceId country bookingUrl reviewNotes ' +
      'factsCheckedOn reviewBy'
    ).split(' ');
    const empty = await update(id, Object.fromEntries(cleared.map((f) => [f, ''])));
    assertOk(empty);
    for (const f of cleared) assert.equal(empty.body[f], null, f);
    assert.equal(empty.body.gatewayTown, 'Bled', 'not sent, kept');
    const nulls = ['conditions', 'parking', 'transport', 'activity', 'status', 'schedule', 'costUnit', 'gatewayTown'];
    const nulled = await update(id, Object.fromEntries(nulls.map((f) => [f, null])));
    assertOk(nulled);
    for (const f of nulls) assert.equal(nulled.body[f], null, f);
    assert.equal(nulled.body.type, 'ferry');
    const arrays = {
      links: [{ kind: 'official', url: 'https://new.example' }],
      fees: [{ label: 'Free', free: true }],
      sources: [{ title: 'New' }],
      extraProps: [{ label: 'Dogs', value: 'on a lead' }],
    };
    const replaced = await update(id, arrays);
    for (const [k, v] of Object.entries(arrays)) assert.deepEqual(replaced.body[k], v, k);
    const none = await update(id, { links: [], fees: [], sources: [], extraProps: [], extraKinds: [] });
    for (const k of ['links', 'fees', 'sources', 'extraProps', 'extraKinds']) assert.deepEqual(none.body[k], [], k);
    const bools = await update(id, { bookingRequired: false, needsParentTicket: true });
    assert.deepEqual([bools.body.bookingRequired, bools.body.needsParentTicket], [false, true]);
    assertError(await update(id, { name: '' }), 'invalid_request', 'name');
    assertError(await update(id, { name: null }), 'invalid_argument', 'name');
    assertError(await update(id, { costUnit: 'per_week' }), 'invalid_argument', 'costUnit');
    assertError(await update(id, { kind: null }), 'invalid_argument', 'kind');
    assertError(await update('fac_unknown', { name: 'X' }), 'not_found');
  });

  it('costRaw and openRaw are kept verbatim, never parsed; bounded at 300', async () => {
    await accepts('costRaw', '35€ pp / kids free?');
    await accepts('openRaw', '  daily-ish 8–18 (not Mon?) ');
    await accepts('costRaw', 'c'.repeat(300));
    await refuses('costRaw', 'c'.repeat(301), 'invalid_request');
    await refuses('openRaw', 'o'.repeat(301), 'invalid_request');
    await refuses('costRaw', 35, 'invalid_argument');
  });

  it('extraProps: both-empty rows dropped, half-empty refused, at most 24, label 60, value 500', async () => {
    const rows = [
      { label: 'Beds', value: '12' },
      { label: '', value: '' },
      { label: '  ', value: ' ' },
      { label: 'Wifi', value: 'slow' },
    ];
    await accepts('extraProps', rows, [rows[0], rows[3]]);
    await refuses('extraProps', [{ label: 'Beds', value: '' }], 'invalid_request', 'extraProps[0].value');
    await refuses('extraProps', [rows[0], { label: '', value: 'x' }], 'invalid_request', 'extraProps[1].label');
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `L${i}`, value: `V${i}` }));
    await accepts('extraProps', many(24));
    await refuses('extraProps', many(25), 'invalid_request');
    await accepts('extraProps', [{ label: 'l'.repeat(60), value: 'v'.repeat(500) }]);
    await refuses('extraProps', [{ label: 'l'.repeat(61), value: 'v' }], 'invalid_request', 'extraProps[0].label');
    await refuses('extraProps', [{ label: 'l', value: 'v'.repeat(501) }], 'invalid_request', 'extraProps[0].value');
    await refuses('extraProps', [{ label: 'l' }], 'invalid_argument', 'extraProps[0].value');
  });

  it('osmId: node/, way/ or relation/ with a positive number', async () => {
    for (const osmId of ['node/1', 'way/4242', 'relation/987654321']) await accepts('osmId', osmId);
    for (const osmId of ['way/0', 'foo/1', 'node/', 'node/abc', 'node/-1', 'Node/1', 'node/1 ']) {
      await refuses('osmId', osmId, 'invalid_request');
    }
    assert.equal((await update(spare, { osmId: '' })).body.osmId, null);
  });

  it('mapsUrl: https on an allowlisted map host or geo:; others refused', async () => {
    for (const url of [
      'https://maps.google.com/?q=46.36,14.11',
      'https://www.google.com/maps/place/Bled',
      'https://maps.app.goo.gl/abc123',
      'https://maps.apple.com/?ll=46.36,14.11',
      'https://www.openstreetmap.org/node/123',
      'geo:46.3683,14.1146',
    ]) {
      await accepts('mapsUrl', url);
    }
    for (const url of [
      'https://example.com/map',
      'http://maps.google.com/?q=1',
      'https://www.google.com/search?q=bled',
      'https://maps.google.com.evil.example/x',
      'geo:95,10',
      'not a url',
    ]) {
      await refuses('mapsUrl', url, 'invalid_request');
    }
    assert.equal((await update(spare, { mapsUrl: '' })).body.mapsUrl, null);
  });

  it('website: https quietly, http with a warning naming website, other schemes refused', async () => {
    const quiet = await accepts('website', 'https://hut.example');
    assert.equal('warnings' in quiet.body, false);
    const http = await accepts('website', 'http://hut.example');
    assert.ok(
      warningsOf(http).some((w) => w.startsWith('website') && /http/.test(w)),
      warningsOf(http).join(),
    );
    for (const url of ['ftp://hut.example', 'hut.example', 'javascript:alert(1)']) {
      await refuses('website', url, 'invalid_request');
    }
    assert.equal((await update(spare, { website: null })).body.website, null);
    assert.equal((await update(spare, { website: 'https://x.example' })).body.website, 'https://x.example');
    assert.equal((await update(spare, { website: '' })).body.website, null);
  });

  it('bookingUrl: http or https (http warned), refused otherwise', async () => {
    await accepts('bookingUrl', 'https://book.example/x');
    const http = await accepts('bookingUrl', 'http://book.example/x');
    assert.ok(
      warningsOf(http).some((w) => w.startsWith('bookingUrl')),
      warningsOf(http).join(),
    );
    await refuses('bookingUrl', 'mailto:book@example.com', 'invalid_request');
  });

  it('lat and lon come together; the time zone follows the pin and clears with it', async () => {
    assertError(await create({ lat: 46.37 }), 'invalid_request', 'lon');
    assertError(await create({ lon: 13.83 }), 'invalid_request', 'lat');
    assertError(await create({ lat: 91, lon: 0 }), 'invalid_request', 'lat');
    assertError(await create({ lat: 0, lon: 181 }), 'invalid_request', 'lon');
    const pinned = await create({ lat: 46.37, lon: 13.83 });
    assertOk(pinned, 201);
    assert.equal(pinned.body.timeZone, 'Europe/Ljubljana');
    const id = pinned.body.facilityId;
    assertError(await update(id, { lat: 40.7 }), 'invalid_request', 'lon');
    const moved = await update(id, { lat: 40.71, lon: -74.0 });
    assert.deepEqual([moved.body.lat, moved.body.lon, moved.body.timeZone], [40.71, -74, 'America/New_York']);
    const gone = await update(id, { lat: null, lon: null });
    assert.deepEqual([gone.body.lat, gone.body.lon, gone.body.timeZone], [null, null, null]);
    const again = await update(id, { lat: -33.86, lon: 151.21 });
    assert.equal(again.body.timeZone, 'Australia/Sydney');
    const oneNull = await update(id, { lat: null });
    assert.deepEqual([oneNull.body.lat, oneNull.body.lon, oneNull.body.timeZone], [null, null, null]);
  });

  it('warnings: mapsUrl without a pin, gatewayTown set, plain http; none when nothing is worth a look', async () => {
    const noPin = await create({ mapsUrl: 'geo:46.1,14.2' });
    assertOk(noPin, 201);
    assert.equal(warningsOf(noPin).length, 1, warningsOf(noPin).join());
    assert.match(warningsOf(noPin)[0] as string, /mapsUrl.*lat.*lon/);
    const pinned = await create({ mapsUrl: 'geo:46.1,14.2', lat: 46.1, lon: 14.2 });
    assert.equal('warnings' in pinned.body, false, JSON.stringify(pinned.body.warnings));
    const town = await create({ gatewayTown: 'Bovec', lat: 46.1, lon: 14.2 });
    assert.equal(warningsOf(town).length, 1);
    assert.match(warningsOf(town)[0] as string, /gatewayTown/);
    assert.match(warningsOf(town)[0] as string, /Bovec/);
    const links = await create({ links: [{ kind: 'official', url: 'http://plain.example' }] });
    assert.ok(
      warningsOf(links).some((w) => w.startsWith('links[0].url')),
      warningsOf(links).join(),
    );
    const clean = await create({ name: 'Clean', website: 'https://clean.example' });
    assert.equal('warnings' in clean.body, false);
    assert.equal('warnings' in (await apis[t].call('list_facilities', { productId })).body, false);
  });

  it('dates and codes: factsCheckedOn and reviewBy are calendar days, country ISO 3166-1', async () => {
    await accepts('factsCheckedOn', '2024-02-29');
    await accepts('reviewBy', '2027-01-31');
    await refuses('factsCheckedOn', '2026-02-30', 'invalid_request');
    await refuses('reviewBy', '2027/01/31', 'invalid_request');
    await accepts('country', 'si', 'SI');
    await refuses('country', 'XX', 'invalid_argument');
    assert.equal((await update(spare, { reviewBy: '' })).body.reviewBy, null);
    assert.equal((await update(spare, { factsCheckedOn: null })).body.factsCheckedOn, null);
  });

  it('conditions: minAge 0..99 whole, luggageKg 0..1000, flags boolean, no unknown keys', async () => {
    const all = {
      minAge: 0,
      guestsOnly: true,
      swimmersOnly: true,
      luggageKg: 0,
      soldAsPackage: true,
      cashOnly: false,
    };
    await accepts('conditions', all);
    await accepts('conditions', { minAge: 99, luggageKg: 1000 });
    await accepts('conditions', {});
    await refuses('conditions', { minAge: -1 }, 'invalid_request', 'conditions.minAge');
    await refuses('conditions', { minAge: 100 }, 'invalid_request', 'conditions.minAge');
    await refuses('conditions', { minAge: 1.5 }, 'invalid_argument', 'conditions.minAge');
    await refuses('conditions', { luggageKg: -1 }, 'invalid_request', 'conditions.luggageKg');
    await refuses('conditions', { luggageKg: 1001 }, 'invalid_request', 'conditions.luggageKg');
    await refuses('conditions', { guestsOnly: 'yes' }, 'invalid_argument', 'conditions.guestsOnly');
    await refuses('conditions', { petsAllowed: true }, 'invalid_argument', 'conditions.petsAllowed');
  });

  it('parking: fillsBy at most 60, rule at most 300', async () => {
    await accepts('parking', { fillsBy: 'f'.repeat(60), rule: 'r'.repeat(300) });
    await refuses('parking', { fillsBy: 'f'.repeat(61) }, 'invalid_request', 'parking.fillsBy');
    await refuses('parking', { rule: 'r'.repeat(301) }, 'invalid_request', 'parking.rule');
    await refuses('parking', { spaces: 40 }, 'invalid_argument', 'parking.spaces');
  });

  it('activity: meeting pin together, durationMin 1..43200, text bounds, authorizedByUrl a web address', async () => {
    const full = {
      meetingPoint: 'm'.repeat(200),
      meetingLat: -90,
      meetingLon: 180,
      durationMin: 43_200,
      departures: 'd'.repeat(300),
      requiredToSee: true,
      authorizedBy: 'a'.repeat(120),
      authorizedByUrl: 'https://authority.example',
    };
    await accepts('activity', full);
    await accepts('activity', { durationMin: 1 });
    await refuses('activity', { meetingLat: 46 }, 'invalid_request', 'activity.meetingLon');
    await refuses('activity', { meetingLon: 14 }, 'invalid_request', 'activity.meetingLat');
    await refuses('activity', { meetingLat: 91, meetingLon: 0 }, 'invalid_request', 'activity.meetingLat');
    await refuses('activity', { durationMin: 0 }, 'invalid_request', 'activity.durationMin');
    await refuses('activity', { durationMin: 43_201 }, 'invalid_request', 'activity.durationMin');
    await refuses('activity', { durationMin: 90.5 }, 'invalid_argument', 'activity.durationMin');
    await refuses('activity', { meetingPoint: 'm'.repeat(201) }, 'invalid_request', 'activity.meetingPoint');
    await refuses('activity', { departures: 'd'.repeat(301) }, 'invalid_request', 'activity.departures');
    await refuses('activity', { authorizedBy: 'a'.repeat(121) }, 'invalid_request', 'activity.authorizedBy');
    await refuses('activity', { authorizedByUrl: 'ftp://x.example' }, 'invalid_request', 'activity.authorizedByUrl');
    await refuses('activity', { requiredToSee: 'yes' }, 'invalid_argument', 'activity.requiredToSee');
  });

  it('transport: at most 50 stops with a name, serviceDays 1..7, timetable window in order', async () => {
    const stops = Array.from({ length: 50 }, (_, i) => ({ name: `Stop ${i}` }));
    await accepts('transport', { stops, serviceDays: [1, 7] });
    await refuses('transport', { stops: [...stops, { name: 'Extra' }] }, 'invalid_request', 'transport.stops');
    await refuses('transport', { stops: [{ lat: 46, lon: 14 }] }, 'invalid_argument', 'transport.stops[0].name');
    await refuses('transport', { stops: [{ name: '' }] }, 'invalid_request', 'transport.stops[0].name');
    await refuses('transport', { stops: [{ name: 'n'.repeat(121) }] }, 'invalid_request', 'transport.stops[0].name');
    await refuses('transport', { stops: [{ name: 'A', lat: 46 }] }, 'invalid_request', 'transport.stops[0].lon');
    await refuses(
      'transport',
      { stops: [{ name: 'A', registerId: 'r'.repeat(61) }] },
      'invalid_request',
      'transport.stops[0].registerId',
    );
    await refuses('transport', { serviceDays: [0] }, 'invalid_request', 'transport.serviceDays[0]');
    await refuses('transport', { serviceDays: [1, 8] }, 'invalid_request', 'transport.serviceDays[1]');
    await refuses('transport', { serviceDays: ['mon'] }, 'invalid_argument', 'transport.serviceDays[0]');
    await accepts('transport', { timetableValidFrom: '2026-06-01', timetableValidUntil: '2026-06-01' });
    await refuses(
      'transport',
      { timetableValidFrom: '2026-06-02', timetableValidUntil: '2026-06-01' },
      'invalid_request',
      'transport.timetableValidUntil',
    );
    await refuses(
      'transport',
      { timetableValidUntil: '2026-13-01' },
      'invalid_request',
      'transport.timetableValidUntil',
    );
    const http = await create({ transport: { timetableUrl: 'http://tt.example' } });
    assertOk(http, 201);
    assert.ok(
      warningsOf(http).some((w) => w.startsWith('transport.timetableUrl')),
      warningsOf(http).join(),
    );
  });
});
