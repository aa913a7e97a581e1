import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCalendarDate, minutesOf } from '../../src/shared/dates.ts';

describe('calendar dates', () => {
  it('only days on the calendar, leap years included', () => {
    assert.equal(isCalendarDate('2026-02-28'), true);
    assert.equal(isCalendarDate('2026-02-29'), false);
    assert.equal(isCalendarDate('2024-02-29'), true);
    assert.equal(isCalendarDate('1900-02-29'), false);
    assert.equal(isCalendarDate('2000-02-29'), true);
    assert.equal(isCalendarDate('2026-04-31'), false);
    assert.equal(isCalendarDate('2026-13-01'), false);
    assert.equal(isCalendarDate('2026-01-00'), false);
    assert.equal(isCalendarDate('2026-1-01'), false);
  });

  it('minutesOf reads HH:MM', () => {
    assert.equal(minutesOf('00:00'), 0);
    assert.equal(minutesOf('23:59'), 1439);
  });
});
