import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { chars, createAndRead, times } from '../helpers/fixtures.ts';
import { itRefusesEach, type Refusal, refused, refusedArgument } from '../helpers/refusals.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

const band = (extra: Record<string, unknown> = {}) => ({ open: '09:00', close: '17:00', ...extra });
/** A schedule whose second band is the one under test. */
const hours = (b: Record<string, unknown>) => ({ schedule: { hours: [band(), b] } });
const b1 = 'schedule.hours[1]';
const HHMM = /HH:MM/;

const refusals: Refusal[] = [
  // HoursBand: bounds and the rules between fields
  refused('25 bands (max 24)', { schedule: { hours: times(25, () => band()) } }, 'schedule.hours', /at most 24/),
  refused('a band not closed without open', hours({ close: '17:00' }), `${b1}.open`, HHMM),
  refused('a band not closed without close', hours({ open: '09:00', closed: false }), `${b1}.close`),
  refused('a closed band with open', hours({ closed: true, open: '09:00' }), `${b1}.open`, /closed/),
  refused('a closed band with close', hours({ closed: true, close: '17:00' }), `${b1}.close`),
  refused(
    'openOffsetMin without a sun anchor',
    hours(band({ openOffsetMin: 30 })),
    `${b1}.openOffsetMin`,
    /sunrise or sunset/,
  ),
  refused(
    'closeOffsetMin without a sun anchor',
    hours({ open: 'sunrise', close: '20:00', closeOffsetMin: -30 }),
    `${b1}.closeOffsetMin`,
  ),
  refused(
    'openOffsetMin 241',
    hours({ open: 'sunrise', close: 'sunset', openOffsetMin: 241 }),
    `${b1}.openOffsetMin`,
    /240/,
  ),
  refused(
    'closeOffsetMin -241',
    hours({ open: 'sunrise', close: 'sunset', closeOffsetMin: -241 }),
    `${b1}.closeOffsetMin`,
    /-240/,
  ),
  refusedArgument(
    'an offset that is not a whole minute',
    hours({ open: 'sunrise', close: 'sunset', openOffsetMin: 1.5 }),
    `${b1}.openOffsetMin`,
  ),
  refused('open "24:00"', hours(band({ open: '24:00' })), `${b1}.open`, HHMM),
  refused('open "7:30"', hours(band({ open: '7:30' })), `${b1}.open`, HHMM),
  refused('close "noon"', hours(band({ close: 'noon' })), `${b1}.close`),
  refused('lastEntry "sunset" (HH:MM only)', hours(band({ lastEntry: 'sunset' })), `${b1}.lastEntry`, HHMM),
  refused('leaveBy "23:60"', hours(band({ leaveBy: '23:60' })), `${b1}.leaveBy`),
  refused('from "02-30"', hours(band({ from: '02-30' })), `${b1}.from`, /day of the year/),
  refused('to "13-01"', hours(band({ to: '13-01' })), `${b1}.to`),
  refused('from "2-3"', hours(band({ from: '2-3' })), `${b1}.from`, /MM-DD/),
  refused('weekday 0', hours(band({ weekdays: [0] })), `${b1}.weekdays[0]`),
  refused('weekday 8', hours(band({ weekdays: [1, 8] })), `${b1}.weekdays[1]`),
  refused('band note of 201', hours(band({ note: chars(201) })), `${b1}.note`),
  refusedArgument('an unknown field in a band', hours(band({ opens: '09:00' })), `${b1}.opens`, /unknown field/),
  refusedArgument('closed sent as "yes"', hours({ closed: 'yes' }), `${b1}.closed`),
  // The schedule itself
  refused(
    'validUntil before validFrom',
    { schedule: { validFrom: '2026-04-01', validUntil: '2026-03-31' } },
    'schedule.validUntil',
    /not be before validFrom/,
  ),
  refused('a schedule note of 501', { schedule: { note: chars(501) } }, 'schedule.note', /at most 500/),
  refused('checkedOn 2025-02-29', { schedule: { checkedOn: '2025-02-29' } }, 'schedule.checkedOn'),
  refused('a sourceUrl on ftp', { schedule: { sourceUrl: 'ftp://example.com' } }, 'schedule.sourceUrl'),
  refusedArgument('an unknown field in the schedule', { schedule: { timezone: 'Europe/Rome' } }, 'schedule.timezone'),
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
