import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';

const TODAY = '2026-11-23';
const hours = [{ open: '09:00', close: '17:00' }];
const fairDay = (date: string) => ({ date, open: '10:00', close: '22:00' });

interface Notice {
  kind: string;
  id: string;
  name: string;
  field: string;
  reason: string;
  date: string;
  detail: string;
}

/** Spots, places and areas with every kind of staleness, and some that are not stale yet on TODAY. */
async function buildGuide(api: Api, productId: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const spot = async (name: string, fields: Record<string, unknown>) => {
    const a = await api.call('create_spot', { productId, name, ...fields });
    assertOk(a, 201);
    ids[name] = a.body.spotId;
  };
  const place = async (name: string, fields: Record<string, unknown>) => {
    const a = await api.call('create_facility', { productId, kind: 'hut', name, ...fields });
    assertOk(a, 201);
    ids[name] = a.body.facilityId;
  };
  await spot('Closed bridge', { status: { state: 'closed', since: '2026-10-01', until: '2026-11-20' } });
  await spot('Museum', {
    fees: [
      { label: 'Adult', amount: 10, currency: 'EUR', validUntil: '2026-10-31' },
      { label: 'Child', free: true, validUntil: TODAY },
    ],
  });
  await spot('Gardens', { schedule: { hours, validUntil: '2026-09-30' } });
  await spot('Festival', { schedule: { specialDays: [fairDay('2026-08-02'), fairDay('2026-08-01')] } });
  await spot('Overdue', { reviewBy: '2026-11-01' });
  // Not stale on TODAY: every date is today or later, or the event still has a date to come.
  await spot('Fresh', {
    status: { state: 'partly_closed', until: TODAY },
    reviewBy: TODAY,
    fees: [{ label: 'Entry', free: true, validUntil: '2026-11-24' }],
    schedule: { hours, validUntil: TODAY },
  });
  await spot('Fair today', { schedule: { specialDays: [fairDay('2026-11-01'), fairDay(TODAY)] } });
  await spot('Hours and dates', { schedule: { hours, specialDays: [fairDay('2026-01-01')] } });
  await spot('Archived', { archived: true, status: { state: 'closed', until: '2026-01-01' }, reviewBy: '2026-01-01' });
  await place('Ferry', {
    kind: 'cable_car',
    transport: { timetableValidFrom: '2026-04-01', timetableValidUntil: '2026-10-15' },
    reviewBy: '2026-11-22',
    schedule: { hours, validUntil: '2026-11-12' },
  });
  await place('Hut', {
    status: { state: 'reopening', until: '2026-11-10' },
    transport: { timetableValidUntil: TODAY },
    fees: [{ label: 'Bed', amount: 30, currency: 'EUR', validUntil: '2026-11-15' }],
  });
  const area = await api.call('set_area', {
    productId,
    name: 'Park',
    status: { state: 'closed', until: '2026-11-05' },
    fees: [
      { label: 'Park entry', amount: 5, currency: 'EUR', validUntil: '2026-06-30' },
      { label: 'Boat', amount: 3, currency: 'EUR', validUntil: TODAY },
    ],
  });
  assertOk(area);
  ids.Park = area.body.area.id;
  return ids;
}

/** [date, kind, name, field, reason] of each entry, in the order answered. */
const rows = (notices: Notice[]) => notices.map((n) => [n.date, n.kind, n.name, n.field, n.reason]);

const staleOnToday = [
  ['2026-06-30', 'area', 'Park', 'fees[0]', 'ended'],
  ['2026-08-02', 'spot', 'Festival', 'schedule.specialDays', 'ended'],
  ['2026-09-30', 'spot', 'Gardens', 'schedule', 'ended'],
  ['2026-10-15', 'place', 'Ferry', 'transport.timetableValidUntil', 'ended'],
  ['2026-10-31', 'spot', 'Museum', 'fees[0]', 'ended'],
  ['2026-11-01', 'spot', 'Overdue', 'reviewBy', 'review_due'],
  ['2026-11-05', 'area', 'Park', 'status', 'ended'],
  ['2026-11-10', 'place', 'Hut', 'status', 'ended'],
  ['2026-11-12', 'place', 'Ferry', 'schedule', 'ended'],
  ['2026-11-15', 'place', 'Hut', 'fees[0]', 'ended'],
  ['2026-11-20', 'spot', 'Closed bridge', 'status', 'ended'],
  ['2026-11-22', 'place', 'Ferry', 'reviewBy', 'review_due'],
];

/** What TODAY's last-day facts turn into once the day is over. */
const staleTomorrow = [
  ['2026-11-23', 'area', 'Park', 'fees[1]', 'ended'],
  ['2026-11-23', 'place', 'Hut', 'transport.timetableValidUntil', 'ended'],
  ['2026-11-23', 'spot', 'Fair today', 'schedule.specialDays', 'ended'],
  ['2026-11-23', 'spot', 'Fresh', 'reviewBy', 'review_due'],
  ['2026-11-23', 'spot', 'Fresh', 'schedule', 'ended'],
  ['2026-11-23', 'spot', 'Fresh', 'status', 'ended'],
  ['2026-11-23', 'spot', 'Museum', 'fees[1]', 'ended'],
];

for (const { dialect, skip } of await testDialects()) {
  describe(`list_stale_notices (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect, now: `${TODAY}T10:00:00Z` });
    const apis = suite.apis;

    for (const t of transports) {
      describe(`over ${t}`, () => {
        let productId: string;
        let ids: Record<string, string>;
        before(async () => {
          suite.h.clock.set(`${TODAY}T10:00:00Z`);
          productId = await newGuide(apis[t], `${t} stale`);
          ids = await buildGuide(apis[t], productId);
        });
        const stale = async (args: Record<string, unknown> = {}) => {
          const a = await apis[t].call('list_stale_notices', { productId, ...args });
          assertOk(a);
          assert.equal(a.body.productId, productId);
          assert.equal(a.body.count, a.body.notices.length);
          return a.body as { today: string; count: number; notices: Notice[] };
        };

        it('lists exactly what ran out, oldest first, with ids and an actionable detail', async () => {
          suite.h.clock.set(`${TODAY}T23:59:59Z`);
          const answer = await stale();
          assert.equal(answer.today, TODAY);
          assert.deepEqual(rows(answer.notices), staleOnToday);
          for (const n of answer.notices) {
            assert.equal(n.id, ids[n.name], `${n.name} id`);
            assert.ok(n.detail.trim().length > 10, `detail of ${n.name} ${n.field}`);
            assert.ok(n.detail.includes(n.date), `detail names the date: ${n.detail}`);
            assert.deepEqual(Object.keys(n).sort(), ['date', 'detail', 'field', 'id', 'kind', 'name', 'reason']);
          }
          assert.ok(!answer.notices.some((n) => n.name === 'Archived'), 'archived spots are left out');
          assert.ok(!answer.notices.some((n) => ['Fresh', 'Fair today', 'Hours and dates'].includes(n.name)));
        });

        it('grows as the clock moves: the last day of a fact counts, the day after does not', async () => {
          suite.h.clock.set(`${TODAY}T00:00:00Z`);
          assert.deepEqual(rows((await stale()).notices), staleOnToday);
          suite.h.clock.set('2026-11-24T00:00:00Z');
          const next = await stale();
          assert.equal(next.today, '2026-11-24');
          const expected = [...staleOnToday, ...staleTomorrow].sort(
            (a, b) =>
              (a[0] as string).localeCompare(b[0] as string) ||
              (a[1] as string).localeCompare(b[1] as string) ||
              (a[2] as string).localeCompare(b[2] as string) ||
              (a[3] as string).localeCompare(b[3] as string),
          );
          assert.deepEqual(rows(next.notices), expected);
          suite.h.clock.set('2026-11-25T12:00:00Z');
          const later = await stale();
          assert.equal(later.today, '2026-11-25');
          assert.ok(later.notices.some((n) => n.name === 'Fresh' && n.field === 'fees[0]' && n.date === '2026-11-24'));
          assert.equal(later.count, next.count + 1);
        });

        it('follows edits: a renewed notice leaves the list, archiving a spot removes its entries', async () => {
          suite.h.clock.set(`${TODAY}T10:00:00Z`);
          const spot = await apis[t].call('create_spot', {
            productId,
            name: 'Edited',
            status: { state: 'closed', until: '2026-11-01' },
          });
          assert.ok((await stale()).notices.some((n) => n.id === spot.body.spotId && n.field === 'status'));
          assertOk(
            await apis[t].call('update_spot', {
              spotId: spot.body.spotId,
              status: { state: 'closed', until: '2026-12-01' },
            }),
          );
          assert.ok(!(await stale()).notices.some((n) => n.id === spot.body.spotId));
          assertOk(
            await apis[t].call('update_spot', { spotId: spot.body.spotId, reviewBy: '2026-10-01', archived: true }),
          );
          assert.ok(!(await stale()).notices.some((n) => n.id === spot.body.spotId));
          assertOk(await apis[t].call('update_spot', { spotId: spot.body.spotId, archived: false }));
          const back = (await stale()).notices.filter((n) => n.id === spot.body.spotId);
          assert.deepEqual(rows(back), [['2026-10-01', 'spot', 'Edited', 'reviewBy', 'review_due']]);
          assertOk(await apis[t].call('delete_spot', { spotId: spot.body.spotId }));
        });
      });
    }

    it('olderThanDays adds not_checked_recently for checks older than the cutoff only', async () => {
      suite.h.clock.set(`${TODAY}T10:00:00Z`);
      const api = apis.rest;
      const productId = await newGuide(api, 'checked');
      const spot = await api.call('create_spot', {
        productId,
        name: 'Checked spot',
        factsCheckedOn: '2026-05-01',
        status: { state: 'open', checkedOn: '2026-06-01' },
        fees: [
          { label: 'Entry', free: true, checkedOn: '2026-07-01' },
          { label: 'Parking', amount: 2, currency: 'EUR', checkedOn: TODAY },
        ],
        schedule: { hours, checkedOn: '2026-08-25' },
      });
      assertOk(spot, 201);
      const place = await api.call('create_facility', {
        productId,
        kind: 'food',
        name: 'Checked place',
        factsCheckedOn: '2026-10-24',
        status: { state: 'open', checkedOn: '2026-03-01' },
      });
      assertOk(place, 201);
      const area = await api.call('set_area', {
        productId,
        name: 'Checked area',
        fees: [{ label: 'Toll', seeOfficial: true, checkedOn: '2026-01-15' }],
        status: { state: 'partly_closed', checkedOn: '2026-02-01' },
      });
      assertOk(area);
      const hidden = await api.call('create_spot', {
        productId,
        name: 'Hidden',
        archived: true,
        factsCheckedOn: '2020-01-01',
      });
      assertOk(hidden, 201);

      for (const t of transports) {
        const call = (args: Record<string, unknown>) => apis[t].call('list_stale_notices', { productId, ...args });
        const plain = await call({});
        assertOk(plain);
        assert.deepEqual(plain.body.notices, [], 'without olderThanDays nothing is due');
        // 90 days before 2026-11-23 is 2026-08-25: a check on that very day is not older than 90 days.
        const ninety = await call({ olderThanDays: 90 });
        assertOk(ninety);
        assert.deepEqual(rows(ninety.body.notices), [
          ['2026-01-15', 'area', 'Checked area', 'fees[0]', 'not_checked_recently'],
          ['2026-02-01', 'area', 'Checked area', 'status', 'not_checked_recently'],
          ['2026-03-01', 'place', 'Checked place', 'status', 'not_checked_recently'],
          ['2026-05-01', 'spot', 'Checked spot', 'factsCheckedOn', 'not_checked_recently'],
          ['2026-06-01', 'spot', 'Checked spot', 'status', 'not_checked_recently'],
          ['2026-07-01', 'spot', 'Checked spot', 'fees[0]', 'not_checked_recently'],
        ]);
        for (const n of ninety.body.notices) assert.ok(n.detail.includes(n.date), n.detail);
        // 30 days before is 2026-10-24, the place's check: not older. One day less and it is.
        const thirty = await call({ olderThanDays: 30 });
        assert.deepEqual(rows(thirty.body.notices).slice(6), [
          ['2026-08-25', 'spot', 'Checked spot', 'schedule', 'not_checked_recently'],
        ]);
        const late = (await call({ olderThanDays: 29 })).body.notices;
        assert.deepEqual(rows(late).slice(7), [
          ['2026-10-24', 'place', 'Checked place', 'factsCheckedOn', 'not_checked_recently'],
        ]);
        assert.equal(late[7].id, place.body.facilityId);
        assert.equal((await call({ olderThanDays: 0 })).body.count, 8, 'everything checked before today');
        assert.equal((await call({ olderThanDays: 400 })).body.count, 0);
        for (const bad of [-1, 36_501, 1.5, 'soon']) {
          assertError(await call({ olderThanDays: bad }), 'invalid_argument', 'olderThanDays');
        }
      }
      // Fees past validUntil still read as ended, not as unchecked.
      suite.h.clock.set('2027-01-01T00:00:00Z');
      assertOk(
        await api.call('set_area', {
          productId,
          areaId: area.body.area.id,
          name: 'Checked area',
          fees: [{ label: 'Toll', seeOfficial: true, checkedOn: '2026-01-15', validUntil: '2026-12-31' }],
        }),
      );
      const answer = (await api.call('list_stale_notices', { productId, olderThanDays: 1000 })).body;
      assert.equal(answer.today, '2027-01-01');
      assert.deepEqual(rows(answer.notices), [['2026-12-31', 'area', 'Checked area', 'fees[0]', 'ended']]);
    });

    it('a read key may list; an unknown guide is 404', async () => {
      const ro = apiFor(suite.h, 'rest', suite.h.alice.readKey);
      assertError(await ro.call('list_stale_notices', { productId: 'gd_unknown' }), 'not_found');
      const productId = await newGuide(apis.rest, 'empty stale');
      const a = await ro.call('list_stale_notices', { productId });
      assertOk(a);
      assert.deepEqual(a.body, { productId, today: suite.h.clock.today(), count: 0, notices: [], total: 0 });
    });
  });
}
