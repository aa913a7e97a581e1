import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { chars, createAndRead, times } from '../helpers/fixtures.ts';
import { itRefusesEach, type Refusal, refused, refusedArgument } from '../helpers/refusals.ts';
import { assertWriteRefused, describeOnSpots } from '../helpers/spot-fields.ts';

const slots = (s: Record<string, unknown>) => ({ schedule: { slots: s } });
/** Special days whose second entry is the one under test. */
const day = (d: Record<string, unknown>) => ({ schedule: { specialDays: [{ date: '2026-12-25', closed: true }, d] } });
const s = 'schedule.slots';
const d1 = 'schedule.specialDays[1]';
const HHMM = /HH:MM/;

const refusals: Refusal[] = [
  // Special days
  refused(
    '41 special days (max 40)',
    { schedule: { specialDays: times(41, (i) => ({ rule: `Day ${i}`, closed: true })) } },
    'schedule.specialDays',
    /at most 40/,
  ),
  refused(
    'a special day with both date and rule',
    day({ date: '2026-12-26', rule: 'Boxing Day', closed: true }),
    d1,
    /date or a rule/,
  ),
  refused('a special day with neither date nor rule', day({ closed: true }), d1, /date or a rule/),
  refused('a special day on 2026-02-30', day({ date: '2026-02-30', closed: true }), `${d1}.date`),
  refused('a special day not closed without close', day({ rule: 'Easter Monday', open: '10:00' }), `${d1}.close`),
  refused('a rule of 121', day({ rule: chars(121), closed: true }), `${d1}.rule`, /at most 120/),
  refused('a special-day note of 201', day({ rule: 'X', closed: true, note: chars(201) }), `${d1}.note`),
  refusedArgument(
    'an unknown field in a special day',
    day({ rule: 'X', closed: true, reason: 'holiday' }),
    `${d1}.reason`,
  ),
  // Slots
  refusedArgument('slots without first', slots({ last: '16:00', everyMin: 15 }), `${s}.first`),
  refusedArgument('slots without last', slots({ first: '09:00', everyMin: 15 }), `${s}.last`),
  refusedArgument('slots without everyMin', slots({ first: '09:00', last: '16:00' }), `${s}.everyMin`),
  refused(
    'slots last before first',
    slots({ first: '09:00', last: '08:59', everyMin: 15 }),
    `${s}.last`,
    /not be before first/,
  ),
  refused('cap 0', slots({ first: '09:00', last: '16:00', everyMin: 15, cap: 0 }), `${s}.cap`, /at least 1/),
  refused('cap 100001', slots({ first: '09:00', last: '16:00', everyMin: 15, cap: 100_001 }), `${s}.cap`, /100000/),
  refused('everyMin 0', slots({ first: '09:00', last: '16:00', everyMin: 0 }), `${s}.everyMin`),
  refused('first "7:30"', slots({ first: '7:30', last: '16:00', everyMin: 15 }), `${s}.first`, HHMM),
  refused('a slots note of 201', slots({ first: '09:00', last: '16:00', everyMin: 15, note: chars(201) }), `${s}.note`),
  refusedArgument(
    'an unknown field in slots',
    slots({ first: '09:00', last: '16:00', everyMin: 15, size: 10 }),
    `${s}.size`,
  ),
];

await describeOnSpots('Schedule special days and timed-entry slots', 'Special days and slots', ({ apis, ids }, t) => {
  it('special days: a date or a rule, closed or open with sun anchors, notes at 200, rules at 120', async () => {
    const specialDays = [
      { date: '2026-12-25', closed: true, note: chars(200, 'n') },
      { date: '2024-02-29', open: 'sunrise', close: '12:00' },
      { rule: chars(120, 'r'), open: '10:00', close: 'sunset' },
      { rule: 'Easter Monday', closed: false, open: '00:00', close: '23:59' },
      ...times(36, (i) => ({ rule: `Day ${i}`, closed: true })),
    ];
    assert.equal(specialDays.length, 40);
    const spot = await createAndRead(apis[t], ids[t].productId, { schedule: { specialDays } });
    assert.deepEqual(spot.schedule.specialDays, specialDays);
  });

  it('slots at their bounds: last equal to first, cap 1, everyMin 1', async () => {
    const spot = await createAndRead(apis[t], ids[t].productId, {
      schedule: { slots: { first: '12:00', last: '12:00', everyMin: 1, cap: 1 } },
    });
    assert.deepEqual(spot.schedule.slots, { first: '12:00', last: '12:00', everyMin: 1, cap: 1 });
  });

  it('slots are replaced with the schedule on update_spot', async () => {
    const full = { first: '09:00', last: '16:30', everyMin: 30, cap: 100_000, note: chars(200, 's') };
    const a = await apis[t].call('update_spot', { spotId: ids[t].spotId, schedule: { slots: full } });
    assertOk(a);
    assert.deepEqual(a.body.schedule, { slots: full });
    assert.deepEqual((await apis[t].call('get_spot', { spotId: ids[t].spotId })).body.schedule, { slots: full });
  });

  itRefusesEach('refused', refusals, (c) => assertWriteRefused(apis[t], ids[t], c));
});
