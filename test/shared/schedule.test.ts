import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { scheduleSchema } from '../../src/shared/schedule.ts';
import { refusals } from '../helpers/refusals.ts';

const schedule = z.strictObject({ schedule: scheduleSchema });
const refused = (value: unknown) => refusals(schedule, { schedule: value });

describe('schedule rules', () => {
  it('a band is open with open and close, or closed with neither', () => {
    assert.deepEqual(
      refused({
        hours: [
          { open: '09:00', close: '17:00' },
          { weekdays: [7], closed: true },
        ],
      }),
      [],
    );
    assert.deepEqual(refused({ hours: [{ open: '09:00' }] }), [
      'schedule.hours[0].close: is required unless closed is true (HH:MM, sunrise or sunset)',
    ]);
    assert.deepEqual(refused({ hours: [{ closed: true, open: '09:00', close: '17:00' }] }), [
      'schedule.hours[0].open: must be left out when closed is true',
      'schedule.hours[0].close: must be left out when closed is true',
    ]);
  });

  it('an offset needs a sun anchor on its side', () => {
    assert.deepEqual(refused({ hours: [{ open: 'sunrise', openOffsetMin: -30, close: 'sunset' }] }), []);
    assert.deepEqual(refused({ hours: [{ open: '09:00', openOffsetMin: 30, close: 'sunset', closeOffsetMin: 15 }] }), [
      'schedule.hours[0].openOffsetMin: applies only when open is sunrise or sunset',
    ]);
    assert.deepEqual(refused({ hours: [{ open: 'sunrise', close: '18:00', closeOffsetMin: 15 }] }), [
      'schedule.hours[0].closeOffsetMin: applies only when close is sunrise or sunset',
    ]);
  });

  it('a special day has a date or a rule, never both or neither', () => {
    assert.deepEqual(refused({ specialDays: [{ date: '2026-12-25', closed: true }] }), []);
    assert.deepEqual(refused({ specialDays: [{ rule: 'Easter Monday', closed: true }] }), []);
    const needsOne = 'schedule.specialDays[0]: needs either a date or a rule (one of them)';
    assert.deepEqual(refused({ specialDays: [{ closed: true }] }), [needsOne]);
    assert.deepEqual(refused({ specialDays: [{ date: '2026-12-25', rule: 'Christmas', closed: true }] }), [needsOne]);
  });

  it('timed entry: last not before first', () => {
    assert.deepEqual(refused({ slots: { first: '09:00', last: '09:00', everyMin: 30 } }), []);
    assert.deepEqual(refused({ slots: { first: '09:00', last: '08:30', everyMin: 30 } }), [
      'schedule.slots.last: must not be before first (09:00)',
    ]);
  });

  it('validUntil not before validFrom', () => {
    assert.deepEqual(refused({ validFrom: '2026-05-01', validUntil: '2026-05-01' }), []);
    assert.deepEqual(refused({ validFrom: '2026-05-01', validUntil: '2026-04-30' }), [
      'schedule.validUntil: must not be before validFrom (2026-05-01)',
    ]);
  });

  it('a repeated weekday says nothing more and is dropped', () => {
    const parsed = scheduleSchema.parse({ hours: [{ weekdays: [6, 7, 6], closed: true }] });
    assert.deepEqual(parsed.hours?.[0]?.weekdays, [6, 7]);
  });
});
