import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { type Answer, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, noRateLimits, type Transport } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';

/**
 * Random and malformed spot bodies thrown at create_spot and upsert_spots. Whatever comes in,
 * the answer is either a stored spot that reads back identical, or a 400 that wrote nothing.
 */

type Body = Record<string, unknown>;

const text = (maxLength: number) => fc.string({ unit: 'binary', maxLength });
const day = fc
  .date({ min: new Date('1990-01-01'), max: new Date('2090-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const badDay = fc.constantFrom('2026-02-30', '2026-13-01', '2025-02-29', '26-01-01', '2026/01/01', 'soon', '2026-1-1');
const lat = fc.double({ min: -90, max: 90, noNaN: true });
const lon = fc.double({ min: -180, max: 180, noNaN: true });
const label = (max: number) => fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: Math.min(max, 30) });
const over = (max: number) => 'x'.repeat(max + 1);
const NUL = 'nul \u0000 byte';
const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([1]), fc.constant({ a: 1 }));
/** A list of valid items with one bad item somewhere in it. */
const withBad = (good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) =>
  fc
    .tuple(fc.array(good, { maxLength: 2 }), bad, fc.nat())
    .map(([items, b, at]) => items.toSpliced(at % (items.length + 1), 0, b));
const badText = (max: number) => fc.oneof(fc.constant(over(max)), fc.constant(NUL), notAString);

const goodPin = fc.record(
  {
    kind: fc.constantFrom('viewpoint', 'entrance', 'trailhead', 'parking', 'summit', 'other'),
    label: label(80),
    lat,
    lon,
    months: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 12 }),
    note: text(40),
  },
  { requiredKeys: ['kind', 'label', 'lat', 'lon'] },
);
const badPin = fc.constantFrom(
  { kind: 'volcano', label: 'x', lat: 1, lon: 1 },
  { kind: 'other', label: '', lat: 1, lon: 1 },
  { kind: 'other', label: 'x', lat: 100, lon: 1 },
  { kind: 'other', label: 'x', lat: 1 },
  { kind: 'other', label: 'x', lat: 1, lon: 1, months: [0] },
  { kind: 'other', label: 'x', lat: 1, lon: 1, extra: true },
  'pin',
);
const goodFee = fc.oneof(
  fc.record({
    label: label(80),
    amount: fc.double({ min: 0, max: 1_000_000, noNaN: true }),
    currency: fc.constantFrom('EUR', 'USD', 'CHF', 'JPY'),
  }),
  fc.record({ label: label(80), free: fc.constant(true), per: fc.constantFrom('person', 'vehicle') }),
  fc.record({ label: label(80), seeOfficial: fc.constant(true), validFrom: day }),
);
const badFee = fc.constantFrom(
  { label: 'Entry', amount: 12 },
  { label: 'Entry', amount: 5, currency: 'EUR', free: true },
  { label: 'Entry', amount: -1, currency: 'EUR' },
  { label: 'Entry', amount: 5, currency: 'EURO' },
  { label: '', free: true },
  { label: 'Entry', seeOfficial: true, free: true },
  { label: 'Entry', validFrom: '2026-05-01', validUntil: '2026-04-01' },
  { label: NUL, free: true },
);
const goodLink = fc.constantFrom(
  { kind: 'official', url: 'https://example.com/spot' },
  { kind: 'tickets', url: 'http://example.com/plain', label: 'Tickets' },
  { kind: 'other', value: '+39 0474 123456' },
);
const badLink = fc.constantFrom(
  { kind: 'official' },
  { kind: 'nope', url: 'https://x.org' },
  { kind: 'official', url: 'ftp://x' },
);
const goodMapLink = fc.constantFrom(
  { label: 'OSM', url: 'https://www.openstreetmap.org/' },
  { label: 'Geo', url: 'geo:46.6,12.3' },
);
const badMapLink = fc.constantFrom(
  { label: 'x', url: 'http://x.org' },
  { label: '', url: 'https://x.org' },
  { url: 'geo:1,1' },
);
const goodValues = fc.record(
  {
    colour: fc.oneof(text(30), fc.constant(''), fc.constant(null)),
    depth: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    opened: day,
    season: fc.subarray(['summer', 'winter', 'spring']),
    kind_of: fc.constantFrom('lake', 'peak', null),
    story: fc.oneof(text(200), fc.constant('two\nlines')),
  },
  { requiredKeys: [] },
);
const badValue = fc.constantFrom<[string, unknown]>(
  ['colour', 'a\nb'],
  ['colour', 7],
  ['colour', 'c'.repeat(201)],
  ['depth', '12'],
  ['opened', '2026-02-30'],
  ['opened', 20260101],
  ['season', ['summer', 'summer']],
  ['season', ['autumn']],
  ['season', 'summer'],
  ['kind_of', 'river'],
  ['kind_of', ['lake']],
  ['story', 5],
  ['retired', 'archived property'],
  ['nope', 1],
);

/** Valid values of every spot field (lat and lon as one `pin`). */
const valid = {
  description: text(60),
  pin: fc.oneof(fc.tuple(lat, lon), fc.constant([null, null])),
  pins: fc.array(goodPin, { maxLength: 3 }),
  mapLinks: fc.array(goodMapLink, { maxLength: 3 }),
  links: fc.array(goodLink, { maxLength: 3 }),
  status: fc.constantFrom(null, { state: 'closed', note: 'Storm', until: '2027-01-01' }, { state: 'open' }),
  fees: fc.array(goodFee, { maxLength: 3 }),
  schedule: fc.constantFrom(
    null,
    { hours: [{ open: '08:00', close: '18:00' }] },
    { hours: [{ closed: true, weekdays: [1] }], specialDays: [{ date: '2026-12-25', closed: true }] },
    { slots: { first: '09:00', last: '17:00', everyMin: 30 } },
  ),
  hours: text(60),
  sources: fc.constantFrom([], [{ url: 'https://example.com/s' }], [{ title: 'Leaflet', kind: 'document' }]),
  areaId: fc.constant(null),
  archived: fc.boolean(),
  customValues: goodValues,
  customNotes: fc.record({ colour: fc.oneof(text(40), fc.constant(null)) }, { requiredKeys: [] }),
  reviewNotes: text(60),
  factsCheckedOn: fc.oneof(day, fc.constant('')),
  reviewBy: fc.oneof(day, fc.constant('')),
};
/** One fault per field: a wrong type, a value out of bounds, a bad item in a list. */
const faults: Record<string, fc.Arbitrary<unknown>> = {
  name: fc.constantFrom('', '   ', over(120), 42, null, `Nul\u0000`),
  description: badText(10_000),
  pin: fc.constantFrom([91, 0], [0, 181], ['1', 2], [1, undefined], [undefined, 5], [0, 'east']),
  pins: fc.oneof(withBad(goodPin, badPin), fc.constant(Array(13).fill({ kind: 'other', label: 'p', lat: 0, lon: 0 }))),
  mapLinks: fc.oneof(withBad(goodMapLink, badMapLink), fc.constant(Array(9).fill({ label: 'g', url: 'geo:1,1' }))),
  links: withBad(goodLink, badLink),
  status: fc.constantFrom(
    { state: 'shut' },
    { state: 'open', since: '2026-05-01', until: '2026-04-01' },
    { state: 'open', until: '2026-02-30' },
    'closed',
  ),
  fees: fc.oneof(
    withBad(goodFee, badFee),
    fc.constant('free'),
    fc.constant(Array(31).fill({ label: 'F', free: true })),
  ),
  schedule: fc.constantFrom(
    { hours: [{ open: '08:00' }] },
    { hours: [{ open: '25:00', close: '26:00' }] },
    { slots: { first: '17:00', last: '09:00', everyMin: 30 } },
    { specialDays: [{ closed: true }] },
    { hours: [{ closed: true, open: '08:00' }] },
  ),
  hours: badText(500),
  sources: fc.constantFrom([{}], [{ kind: 'page' }], Array(41).fill({ title: 'T' }), [
    { url: 'https://x.org', supports: ['s'.repeat(61)] },
  ]),
  areaId: fc.constantFrom('area_x', '', 5),
  archived: fc.constantFrom('true', 1, null),
  customValues: fc.oneof(
    fc.tuple(goodValues, badValue).map(([values, [key, value]]) => ({ ...values, [key]: value })),
    fc.constantFrom([], 'values', null),
  ),
  customNotes: fc.constantFrom({ nope: 'x' }, { colour: 3 }, { colour: 'n'.repeat(1001) }, { retired: 'x' }, 'x'),
  reviewNotes: badText(5000),
  factsCheckedOn: fc.oneof(badDay, notAString),
  reviewBy: badDay,
  extra: fc.constantFrom('colour', 'spotId', 'order', 'createdAt', 'timeZone', 'productKey'),
};

/** A spot body: a random subset of valid fields, a name 9 times in 10, and sometimes one or two faults. */
const spotBody = (faultRate: number) =>
  fc
    .record({
      fields: fc.record(valid, { requiredKeys: [] }),
      name: fc.option(
        label(120).filter((s) => s.trim().length > 0),
        { freq: 9 },
      ),
      faults: fc.oneof(
        { weight: 100 - faultRate, arbitrary: fc.constant([]) },
        {
          weight: faultRate,
          arbitrary: fc.array(fc.oneof(...Object.entries(faults).map(([f, arb]) => arb.map((v) => [f, v] as const))), {
            minLength: 1,
            maxLength: 2,
          }),
        },
      ),
    })
    .map(({ fields, name, faults: wrong }) => {
      const { pin, ...rest } = fields;
      const body: Body = name === null ? { ...rest } : { name, ...rest };
      const place = (p: unknown) => {
        [body.lat, body.lon] = p as unknown[];
      };
      if (pin !== undefined) place(pin);
      for (const [field, value] of wrong) {
        if (field === 'pin') place(value);
        else if (field === 'extra') body[value as string] = 'surprise';
        else body[field] = value;
      }
      return body;
    });

const createBody = spotBody(50);
const KEYS = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8'];
const batchItem = fc
  .tuple(
    fc.oneof({ weight: 19, arbitrary: fc.constantFrom(...KEYS) }, fc.constantFrom('Bad Key', '', undefined)),
    spotBody(15),
  )
  .map(([spotKey, body]) => (spotKey === undefined ? body : { spotKey, ...body }));
const batchBody = fc.oneof(
  { weight: 18, arbitrary: fc.array(batchItem, { minLength: 1, maxLength: 4 }) },
  fc.constant([]),
  fc.constant(Array.from({ length: 26 }, (_, i) => ({ spotKey: `over-${i}`, name: `Over ${i}` }))),
);

const withoutWarnings = ({ warnings: _w, ...record }: Body) => record;
const json = (v: unknown) => JSON.parse(JSON.stringify(v));

for (const { dialect, skip } of await testDialects()) {
  const runs = dialect === 'sqlite' ? 90 : 40;
  describe(`spots: random bodies for create_spot and upsert_spots (${dialect})`, { skip }, () => {
    let h: Harness;
    const apis = {} as Record<Transport, Api>;
    let productId: string;
    const tally = { ok: 0, refused: 0 };
    before(async () => {
      h = await startServer({ dialect, env: noRateLimits });
      apis.rest = apiFor(h, 'rest', h.alice.writeKey);
      apis.mcp = apiFor(h, 'mcp', h.alice.writeKey);
      const g = await apis.rest.call('create_guide', { name: 'Fuzz' });
      productId = g.body.productId;
      const props: Body[] = [
        { label: 'Colour', kind: 'shortLabel' },
        { label: 'Depth', kind: 'number' },
        { label: 'Opened', kind: 'date' },
        { label: 'Season', kind: 'checkbox', options: [{ label: 'Summer' }, { label: 'Winter' }, { label: 'Spring' }] },
        { label: 'Kind of', kind: 'singleSelect', options: [{ label: 'Lake' }, { label: 'Peak' }] },
        { label: 'Story', kind: 'longSection' },
        { label: 'Retired', kind: 'shortLabel' },
      ];
      for (const p of props) assertOk(await apis.rest.call('create_property', { productId, ...p }), 201);
      const list = await apis.rest.call('list_properties', { productId });
      const retired = list.body.properties.find((p: Body) => p.key === 'retired');
      assertOk(await apis.rest.call('archive_property', { propertyDefId: retired.propertyDefId }));
    });
    after(async () => {
      await apis.rest?.close();
      await apis.mcp?.close();
      await h?.close();
    });

    /** Every spot of the guide, page after page. */
    const snapshot = async () => {
      const spots: Body[] = [];
      let cursor: string | undefined;
      do {
        const page = { productId, includeArchived: true, limit: 500, ...(cursor === undefined ? {} : { cursor }) };
        const a = await apis.rest.call('list_spots', page);
        assertOk(a);
        spots.push(...(a.body.spots as Body[]));
        cursor = a.body.nextCursor;
      } while (cursor !== undefined);
      return spots;
    };
    /** The invariant: a success that reads back identical, or a 400 that wrote nothing. */
    const check = async (a: Answer, before: Body[], created: number) => {
      assert.notEqual(a.status, 500, JSON.stringify(a.body));
      if (!a.ok) {
        tally.refused += 1;
        if (a.status !== undefined) assert.equal(a.status, 400, JSON.stringify(a.body));
        assert.ok(['invalid_argument', 'invalid_request'].includes(a.body?.error?.code), JSON.stringify(a.body));
        assert.equal(typeof a.body.error.message, 'string');
        assert.deepEqual(await snapshot(), before, 'a refused write changed the guide');
        return [];
      }
      tally.ok += 1;
      const spots: Body[] = a.body.spots ?? [withoutWarnings(a.body)];
      for (const s of spots) {
        const got = await apis.rest.call('get_spot', { spotId: s.spotId });
        assertOk(got);
        assert.deepEqual(got.body, s, 'the answer is what get_spot reads');
      }
      const afterList = await snapshot();
      assert.equal(afterList.length, before.length + created);
      return spots;
    };

    it('create_spot: a stored spot as sent, or a 400 with nothing written', async () => {
      await fc.assert(
        fc.asyncProperty(createBody, fc.constantFrom<Transport>('rest', 'mcp'), async (body, t) => {
          const before = await snapshot();
          const a = await apis[t].call('create_spot', { productId, ...json(body) });
          const [s] = await check(a, before, 1);
          if (s === undefined) return;
          assert.equal(a.status ?? 201, 201);
          for (const field of ['name', 'pins', 'mapLinks', 'links', 'fees', 'sources', 'archived']) {
            if (body[field] !== undefined) assert.deepEqual(s[field], json(body)[field], field);
          }
          for (const field of ['description', 'hours', 'reviewNotes', 'factsCheckedOn']) {
            if (body[field] !== undefined) assert.equal(s[field], body[field] === '' ? null : body[field], field);
          }
        }),
        { numRuns: runs },
      );
    });

    it('upsert_spots: every item stored and read back, or a 400 with nothing written', async () => {
      await fc.assert(
        fc.asyncProperty(batchBody, fc.constantFrom<Transport>('rest', 'mcp'), async (items, t) => {
          const before = await snapshot();
          const known = new Set(before.map((s) => s.spotKey));
          const fresh = new Set(items.map((i: Body) => i.spotKey).filter((k) => !known.has(k)));
          // The records whole, to hold each against get_spot (compact answers: compact-write-answers.test.ts).
          const a = await apis[t].call('upsert_spots', { productId, spots: json(items), answer: 'full' });
          const spots = await check(a, before, fresh.size);
          if (!a.ok) return;
          assert.deepEqual(
            spots.map((s) => s.spotKey),
            items.map((i: Body) => i.spotKey),
          );
          assert.deepEqual(a.body.created, [...fresh]);
          // Spots left out of the batch are untouched.
          const sent = new Set(items.map((i: Body) => i.spotKey));
          const untouched = (await snapshot()).filter((s) => !sent.has(s.spotKey));
          assert.deepEqual(
            untouched,
            before.filter((s) => !sent.has(s.spotKey)),
          );
        }),
        { numRuns: Math.round(runs * 0.8) },
      );
    });

    it('a body that is not a JSON object is invalid_argument and writes nothing', async () => {
      const before = await snapshot();
      for (const raw of ['{"name": ', '[1, 2]', '"Lake"', '42', '{"spots": [}']) {
        for (const path of [`/guides/${productId}/spots`, `/guides/${productId}/spots/batch`]) {
          const r = await rest(h.baseUrl, h.alice.writeKey, 'POST', path, raw);
          assert.equal(r.status, 400, `${raw}: ${JSON.stringify(r.body)}`);
          assert.equal(r.body.error.code, 'invalid_argument', JSON.stringify(r.body));
        }
      }
      assert.deepEqual(await snapshot(), before);
    });

    it('the runs exercised both outcomes', () => {
      assert.ok(tally.ok >= runs * 0.15, `only ${tally.ok} successes`);
      assert.ok(tally.refused >= runs * 0.15, `only ${tally.refused} refusals`);
    });
  });
}
