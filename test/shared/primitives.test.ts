import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertOk, withoutRequestId } from '../helpers/answers.ts';
import { transports } from '../helpers/api.ts';
import { createAndRead } from '../helpers/fixtures.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

type Fields = Record<string, unknown>;
type Code = 'invalid_argument' | 'invalid_request';
type Read = (spot: any) => unknown;

/** Every place a spot holds a YYYY-MM-DD date: where it sits, how to send one, how to read it back. */
const dateFields: Array<{ path: string; send: (d: unknown) => Fields; read: Read }> = [
  { path: 'status.since', send: (d) => ({ status: { state: 'closed', since: d } }), read: (s) => s.status.since },
  {
    path: 'status.checkedOn',
    send: (d) => ({ status: { state: 'open', checkedOn: d } }),
    read: (s) => s.status.checkedOn,
  },
  {
    path: 'fees[0].validFrom',
    send: (d) => ({ fees: [{ label: 'A', validFrom: d }] }),
    read: (s) => s.fees[0].validFrom,
  },
  {
    path: 'fees[0].validUntil',
    send: (d) => ({ fees: [{ label: 'A', validUntil: d }] }),
    read: (s) => s.fees[0].validUntil,
  },
  {
    path: 'sources[0].capturedOn',
    send: (d) => ({ sources: [{ title: 'T', capturedOn: d }] }),
    read: (s) => s.sources[0].capturedOn,
  },
  { path: 'schedule.validUntil', send: (d) => ({ schedule: { validUntil: d } }), read: (s) => s.schedule.validUntil },
  {
    path: 'schedule.specialDays[0].date',
    send: (d) => ({ schedule: { specialDays: [{ date: d, closed: true }] } }),
    read: (s) => s.schedule.specialDays[0].date,
  },
  { path: 'factsCheckedOn', send: (d) => ({ factsCheckedOn: d }), read: (s) => s.factsCheckedOn },
  { path: 'reviewBy', send: (d) => ({ reviewBy: d }), read: (s) => s.reviewBy },
];

const realDays = ['2024-02-29', '2000-02-29', '2026-12-31', '2026-01-01'];
const notDays = ['2026-02-30', '2025-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00'];
const malformed = ['2026/01/01', '2026-1-01', '26-01-01', '2026-01-01T00:00:00Z'];

/** Every place a spot holds an http(s) address. */
const urlFields: Array<{ path: string; send: (u: string) => Fields }> = [
  { path: 'links[0].url', send: (u) => ({ links: [{ kind: 'website', url: u }] }) },
  { path: 'status.sourceUrl', send: (u) => ({ status: { state: 'open', sourceUrl: u } }) },
  { path: 'fees[0].sourceUrl', send: (u) => ({ fees: [{ label: 'A', sourceUrl: u }] }) },
  { path: 'sources[0].url', send: (u) => ({ sources: [{ url: u }] }) },
  { path: 'schedule.sourceUrl', send: (u) => ({ schedule: { sourceUrl: u } }) },
];

const badUrls = [
  'ftp://example.com/file',
  'not a url',
  'mailto:someone@example.com',
  'https://',
  'http:example.com',
  'https:/example.com',
  ' https://example.com',
  '//example.com/path',
];

await describeOnSpots(
  'dates, URLs and codes',
  'Primitives',
  ({ apis, ids, dialect }, t) => {
    // Validation does not touch the store: the PostgreSQL leg runs a representative subset of the matrices.
    const reduced = dialect === 'postgres';
    const dates = reduced ? dateFields.filter((f) => ['status.since', 'reviewBy'].includes(f.path)) : dateFields;
    const urls = reduced ? urlFields.filter((f) => ['links[0].url', 'fees[0].sourceUrl'].includes(f.path)) : urlFields;

    /** update_spot alone: the refusal, its code and its path. */
    const refusedByUpdate = async (fields: Fields, code: Code, path: string, hint?: RegExp) =>
      assertError(await apis[t].call('update_spot', { spotId: ids[t].spotId, ...fields }), code, path, {
        hint,
        pathInDetails: true,
      });

    for (const f of dates) {
      it(`${f.path}: real days (2024-02-29, 2000-02-29…) are accepted and read back`, async () => {
        for (const day of realDays) {
          const spot = await createAndRead(apis[t], ids[t].productId, f.send(day));
          assert.equal(f.read(spot), day, `${f.path} = ${day}`);
        }
      });

      it(`${f.path}: days not on the calendar are invalid_request, malformed dates too, a number is invalid_argument`, async () => {
        // The first value goes through create_spot and update_spot; the rest through update_spot alone.
        await assertWriteRefused(apis[t], ids[t], {
          title: '2026-02-30',
          fields: f.send('2026-02-30'),
          code: 'invalid_request',
          path: f.path,
          hint: /calendar/,
        });
        for (const day of notDays) await refusedByUpdate(f.send(day), 'invalid_request', f.path, /calendar/);
        for (const text of malformed) await refusedByUpdate(f.send(text), 'invalid_request', f.path, /YYYY-MM-DD/);
        await refusedByUpdate(f.send(20260101), 'invalid_argument', f.path);
      });
    }

    it('factsCheckedOn and reviewBy: "" clears them', async () => {
      const spot = await createAndRead(apis[t], ids[t].productId, {
        factsCheckedOn: '2026-02-28',
        reviewBy: '2027-02-28',
      });
      assertOk(await apis[t].call('update_spot', { spotId: spot.spotId, factsCheckedOn: '', reviewBy: '' }));
      const read = await apis[t].call('get_spot', { spotId: spot.spotId });
      assert.equal(read.body.factsCheckedOn, null);
      assert.equal(read.body.reviewBy, null);
    });

    for (const f of urls) {
      it(`${f.path}: https is stored without warnings; http is stored with a warning naming the path`, async () => {
        const secure = await createAndRead(apis[t], ids[t].productId, f.send('https://example.com/a?b=c#d'));
        assert.ok(JSON.stringify(secure).includes('"https://example.com/a?b=c#d"'));
        for (const http of ['http://example.com/page', 'HTTP://EXAMPLE.COM/']) {
          const a = await apis[t].call('update_spot', { spotId: ids[t].spotId, ...f.send(http) });
          assertOk(a);
          assert.deepEqual(a.body.warnings, [`${f.path}: plain http link; prefer https if the site offers it.`]);
          const read = await apis[t].call('get_spot', { spotId: ids[t].spotId });
          assert.ok(JSON.stringify(read.body).includes(JSON.stringify(http)), `${http} stored`);
          assert.equal('warnings' in read.body, false);
        }
      });

      it(`${f.path}: ftp, mailto, "not a url" and addresses without "scheme://" are refused`, async () => {
        await assertWriteRefused(apis[t], ids[t], {
          title: 'ftp',
          fields: f.send('ftp://example.com/file'),
          code: 'invalid_request',
          path: f.path,
          hint: /https:\/\//,
        });
        for (const url of badUrls) await refusedByUpdate(f.send(url), 'invalid_request', f.path, /https:\/\//);
      });
    }

    it('one write with several http links warns once per path', async () => {
      const a = await apis[t].call('create_spot', {
        productId: ids[t].productId,
        name: 'Many http',
        links: [
          { kind: 'website', url: 'https://example.com' },
          { kind: 'booking', url: 'http://b.example.com' },
        ],
        fees: [{ label: 'A', sourceUrl: 'http://fees.example.com' }],
        sources: [{ url: 'http://s.example.com' }, { url: 'http://s.example.com/2' }],
        mapLinks: [{ label: 'Map', url: 'https://maps.google.com/?q=1' }],
      });
      assertOk(a, 201);
      assert.deepEqual([...a.body.warnings].sort(), [
        'fees[0].sourceUrl: plain http link; prefer https if the site offers it.',
        'links[1].url: plain http link; prefer https if the site offers it.',
        'sources[0].url: plain http link; prefer https if the site offers it.',
        'sources[1].url: plain http link; prefer https if the site offers it.',
      ]);
    });

    it('ISO 4217: any case in, upper case out; codes outside the list are invalid_argument', async () => {
      const fees = ['usd', 'eUr', 'JPY', 'nzd'].map((currency, i) => ({ label: `F${i}`, amount: 1, currency }));
      const spot = await createAndRead(apis[t], ids[t].productId, { fees });
      assert.deepEqual(
        spot.fees.map((f: { currency: string }) => f.currency),
        ['USD', 'EUR', 'JPY', 'NZD'],
      );
      for (const currency of ['EURO', 'XXY', '', 'E']) {
        await assertWriteRefused(apis[t], ids[t], {
          title: currency,
          fields: { fees: [{ label: 'A', amount: 1, currency }] },
          code: 'invalid_argument',
          path: 'fees[0].currency',
          hint: /ISO 4217/,
        });
      }
    });

    it('ISO 3166-1 on a guide: any case in, upper case out; unknown codes are invalid_argument', async () => {
      const productId = ids[t].productId;
      const ok = await apis[t].call('update_guide', { productId, country: 'nz' });
      assertOk(ok);
      assert.equal(ok.body.country, 'NZ');
      for (const country of ['XX', 'NZL', 'new zealand']) {
        const a = await apis[t].call('update_guide', { productId, country });
        assertError(a, 'invalid_argument', 'country', { hint: /ISO 3166-1/, pathInDetails: true });
      }
      assert.equal((await apis[t].call('get_guide', { productId })).body.country, 'NZ');
    });

    it('a list sent as an object, a nullable-free list sent as null: invalid_argument naming the field', async () => {
      for (const field of ['fees', 'links', 'sources', 'pins', 'mapLinks']) {
        await assertWriteRefused(apis[t], ids[t], {
          title: field,
          fields: { [field]: {} },
          code: 'invalid_argument',
          path: field,
        });
        await assertWriteRefused(apis[t], ids[t], {
          title: field,
          fields: { [field]: null },
          code: 'invalid_argument',
          path: field,
        });
      }
    });
  },
  ({ apis, ids }) => {
    it('REST and MCP answer the same refusal with the same envelope', async () => {
      const cases: Fields[] = [
        { fees: [{ label: 'A' }, { label: 'B', amount: 3 }] },
        { schedule: { hours: [{ open: '24:00', close: '18:00' }] } },
        { mapLinks: [{ label: 'M', url: 'geo:91,0' }] },
        { links: [{ kind: 'homepage', url: 'https://example.com' }] },
        { reviewBy: '2026-02-30' },
      ];
      for (const fields of cases) {
        const answers = [];
        for (const t of transports)
          answers.push(await apis[t].call('update_spot', { spotId: ids[t].spotId, ...fields }));
        assert.equal(answers[0]?.ok, false);
        assert.deepEqual(
          withoutRequestId(answers[1]?.body),
          withoutRequestId(answers[0]?.body),
          JSON.stringify(fields),
        );
      }
    });
  },
);
