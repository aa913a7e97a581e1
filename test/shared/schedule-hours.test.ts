import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { chars, createAndRead, times } from '../helpers/fixtures.ts';
import { itRefusesEach, type Refusal } from '../helpers/refusals.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

const band = (extra: Record<string, unknown> = {}) => ({ open: '09:00', close: '17:00', ...extra });
/** A schedule whose second band is the one under test. */
const hours = (b: Record<string, unknown>) => ({ schedule: { hours: [band(), b] } });
const b1 = 'schedule.hours[1]';
const HHMM = /HH:MM/;

const refusals: Refusal[] = [
  // HoursBand: bounds and the rules between fields
  {
    title: '25 bands (max 24)',
    fields: { schedule: { hours: times(25, () => band()) } },
    code: 'invalid_request',
    path: 'schedule.hours',
    hint: /at most 24/,
  },
  {
    title: 'a band not closed without open',
    fields: hours({ close: '17:00' }),
    code: 'invalid_request',
    path: `${b1}.open`,
    hint: HHMM,
  },
  {
    title: 'a band not closed without close',
    fields: hours({ open: '09:00', closed: false }),
    code: 'invalid_request',
    path: `${b1}.close`,
  },
  {
    title: 'a closed band with open',
    fields: hours({ closed: true, open: '09:00' }),
    code: 'invalid_request',
    path: `${b1}.open`,
    hint: /closed/,
  },
  {
    title: 'a closed band with close',
    fields: hours({ closed: true, close: '17:00' }),
    code: 'invalid_request',
    path: `${b1}.close`,
  },
  {
    title: 'openOffsetMin without a sun anchor',
    fields: hours(band({ openOffsetMin: 30 })),
    code: 'invalid_request',
    path: `${b1}.openOffsetMin`,
    hint: /sunrise or sunset/,
  },
  {
    title: 'closeOffsetMin without a sun anchor',
    fields: hours({ open: 'sunrise', close: '20:00', closeOffsetMin: -30 }),
    code: 'invalid_request',
    path: `${b1}.closeOffsetMin`,
  },
  {
    title: 'openOffsetMin 241',
    fields: hours({ open: 'sunrise', close: 'sunset', openOffsetMin: 241 }),
    code: 'invalid_request',
    path: `${b1}.openOffsetMin`,
    hint: /240/,
  },
  {
    title: 'closeOffsetMin -241',
    fields: hours({ open: 'sunrise', close: 'sunset', closeOffsetMin: -241 }),
    code: 'invalid_request',
    path: `${b1}.closeOffsetMin`,
    hint: /-240/,
  },
  {
    title: 'an offset that is not a whole minute',
    fields: hours({ open: 'sunrise', close: 'sunset', openOffsetMin: 1.5 }),
    code: 'invalid_argument',
    path: `${b1}.openOffsetMin`,
  },
  {
    title: 'open "24:00"',
    fields: hours(band({ open: '24:00' })),
    code: 'invalid_request',
    path: `${b1}.open`,
    hint: HHMM,
  },
  {
    title: 'open "7:30"',
    fields: hours(band({ open: '7:30' })),
    code: 'invalid_request',
    path: `${b1}.open`,
    hint: HHMM,
  },
  { title: 'close "noon"', fields: hours(band({ close: 'noon' })), code: 'invalid_request', path: `${b1}.close` },
  {
    title: 'lastEntry "sunset" (HH:MM only)',
    fields: hours(band({ lastEntry: 'sunset' })),
    code: 'invalid_request',
    path: `${b1}.lastEntry`,
    hint: HHMM,
  },
  {
    title: 'leaveBy "23:60"',
    fields: hours(band({ leaveBy: '23:60' })),
    code: 'invalid_request',
    path: `${b1}.leaveBy`,
  },
  {
    title: 'from "02-30"',
    fields: hours(band({ from: '02-30' })),
    code: 'invalid_request',
    path: `${b1}.from`,
    hint: /day of the year/,
  },
  {
    title: 'to "13-01"',
    fields: hours(band({ to: '13-01' })),
    code: 'invalid_request',
    path: `${b1}.to`,
  },
  {
    title: 'from "2-3"',
    fields: hours(band({ from: '2-3' })),
    code: 'invalid_request',
    path: `${b1}.from`,
    hint: /MM-DD/,
  },
  { title: 'weekday 0', fields: hours(band({ weekdays: [0] })), code: 'invalid_request', path: `${b1}.weekdays[0]` },
  { title: 'weekday 8', fields: hours(band({ weekdays: [1, 8] })), code: 'invalid_request', path: `${b1}.weekdays[1]` },
  { title: 'band note of 201', fields: hours(band({ note: chars(201) })), code: 'invalid_request', path: `${b1}.note` },
  {
    title: 'an unknown field in a band',
    fields: hours(band({ opens: '09:00' })),
    code: 'invalid_argument',
    path: `${b1}.opens`,
    hint: /unknown field/,
  },
  { title: 'closed sent as "yes"', fields: hours({ closed: 'yes' }), code: 'invalid_argument', path: `${b1}.closed` },
  // The schedule itself
  {
    title: 'validUntil before validFrom',
    fields: { schedule: { validFrom: '2026-04-01', validUntil: '2026-03-31' } },
    code: 'invalid_request',
    path: 'schedule.validUntil',
    hint: /not be before validFrom/,
  },
  {
    title: 'a schedule note of 501',
    fields: { schedule: { note: chars(501) } },
    code: 'invalid_request',
    path: 'schedule.note',
    hint: /at most 500/,
  },
  {
    title: 'checkedOn 2025-02-29',
    fields: { schedule: { checkedOn: '2025-02-29' } },
    code: 'invalid_request',
    path: 'schedule.checkedOn',
  },
  {
    title: 'a sourceUrl on ftp',
    fields: { schedule: { sourceUrl: 'ftp://example.com' } },
    code: 'invalid_request',
    path: 'schedule.sourceUrl',
  },
  {
    title: 'an unknown field in the schedule',
    fields: { schedule: { timezone: 'Europe/Rome' } },
    code: 'invalid_argument',
    path: 'schedule.timezone',
  },
];

await describeOnSpots('Schedule and HoursBand', 'Schedules', ({ apis, ids }, t) => {
  it('a full schedule at its bounds reads back identical', async () => {
    const schedule = {
      hours: [
        { weekdays: [1, 2, 3, 4, 5, 6, 7], open: '00:00', close: '23:59', lastEntry: '23:00', leaveBy: '23:59' },
        {
          from: '04-01',
          to: '09-30',
          open: 'sunrise',
          close: 'sunset',
          openOffsetMin: -240,
          closeOffsetMin: 240,
          note: chars(200, 'b'),
        },
        { from: '11-01', to: '03-31', weekdays: [6, 7], open: '10:00', close: '16:00' },
        { from: '02-29', to: '02-29', closed: true },
        { weekdays: [1], closed: true, note: 'Closed on Mondays' },
      ],
      specialDays: [
        { date: '2026-12-25', closed: true },
        { date: '2024-02-29', open: 'sunrise', close: '12:00', note: chars(200, 'd') },
        { rule: chars(120, 'r'), open: '10:00', close: 'sunset' },
      ],
      slots: { first: '09:00', last: '16:30', everyMin: 30, cap: 100_000, note: chars(200, 's') },
      validFrom: '2026-01-01',
      validUntil: '2026-12-31',
      sourceUrl: 'https://example.com/hours',
      checkedOn: '2026-02-28',
      note: chars(500, 'n'),
    };
    const spot = await createAndRead(apis[t], ids[t].productId, { schedule });
    assert.deepEqual(spot.schedule, schedule);
  });

  it('a weekday listed twice is kept once, in first-seen order', async () => {
    const spot = await createAndRead(apis[t], ids[t].productId, {
      schedule: { hours: [band({ weekdays: [6, 7, 6, 1, 7] })] },
    });
    assert.deepEqual(spot.schedule.hours[0].weekdays, [6, 7, 1]);
  });

  it('24 bands and 40 special days are accepted', async () => {
    const schedule = {
      hours: times(24, (i) => band({ note: `Band ${i}` })),
      specialDays: times(40, (i) => ({ rule: `Day ${i}`, closed: true })),
    };
    const spot = await createAndRead(apis[t], ids[t].productId, { schedule });
    assert.equal(spot.schedule.hours.length, 24);
    assert.equal(spot.schedule.specialDays.length, 40);
    assert.deepEqual(spot.schedule, schedule);
  });

  it('offsets ±240 on sun anchors, "23:59", MM-DD "02-29" and a wrap from "11-01" to "03-31" via update_spot', async () => {
    const schedule = {
      hours: [
        {
          from: '11-01',
          to: '03-31',
          open: 'sunset',
          close: 'sunrise',
          openOffsetMin: 240,
          closeOffsetMin: -240,
        },
      ],
      specialDays: [{ rule: 'Leap day', open: '00:00', close: '23:59' }],
    };
    const a = await apis[t].call('update_spot', { spotId: ids[t].spotId, schedule });
    assertOk(a);
    assert.deepEqual(a.body.schedule, schedule);
    assert.deepEqual((await apis[t].call('get_spot', { spotId: ids[t].spotId })).body.schedule, schedule);
  });

  it('update_spot replaces the whole schedule and null clears it', async () => {
    const spot = await createAndRead(apis[t], ids[t].productId, { schedule: { hours: [band()], note: 'Old' } });
    const replaced = await apis[t].call('update_spot', { spotId: spot.spotId, schedule: { note: 'New' } });
    assertOk(replaced);
    assert.deepEqual(replaced.body.schedule, { note: 'New' });
    assertOk(await apis[t].call('update_spot', { spotId: spot.spotId, schedule: null }));
    assert.equal((await apis[t].call('get_spot', { spotId: spot.spotId })).body.schedule, null);
  });

  it('an http sourceUrl is accepted with a warning at schedule.sourceUrl', async () => {
    const a = await apis[t].call('update_spot', {
      spotId: ids[t].spotId,
      schedule: { sourceUrl: 'http://example.com/hours' },
    });
    assertOk(a);
    assert.deepEqual(a.body.warnings, ['schedule.sourceUrl: plain http link; prefer https if the site offers it.']);
  });

  itRefusesEach('refused', refusals, (c) => assertWriteRefused(apis[t], ids[t], c));
});
