import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type DatedFacts,
  daysBefore,
  type StaleFact,
  sortStaleFacts,
  staleFactsOf,
} from '../../src/resources/publishing/staleness.ts';

const today = '2026-06-15';
const row = (facts: Partial<DatedFacts>): DatedFacts => ({ kind: 'spot', id: 'sp_1', name: 'Lake', ...facts });
/** field, reason and date of each stale fact: what the rules decide. */
const stale = (facts: Partial<DatedFacts>, olderThanDays?: number) =>
  staleFactsOf(row(facts), today, olderThanDays).map((f) => [f.field, f.reason, f.date]);

describe('stale facts: what ran out', () => {
  it('a review falls due the day after reviewBy', () => {
    assert.deepEqual(stale({ reviewBy: '2026-06-14' }), [['reviewBy', 'review_due', '2026-06-14']]);
    assert.deepEqual(stale({ reviewBy: today }), []);
    assert.deepEqual(stale({ reviewBy: null }), []);
  });

  it('a status notice ends the day after until', () => {
    assert.deepEqual(stale({ status: { state: 'closed', until: '2026-06-01' } }), [['status', 'ended', '2026-06-01']]);
    assert.deepEqual(stale({ status: { state: 'closed', until: today } }), []);
    assert.deepEqual(stale({ status: { state: 'closed' } }), []);
  });

  it('a fee ends after validUntil, named by its place in the list', () => {
    const fees = [{ label: 'Adult' }, { label: 'Child', validUntil: '2026-01-31' }];
    assert.deepEqual(stale({ fees }), [['fees[1]', 'ended', '2026-01-31']]);
  });

  it('opening hours end after validUntil, and say nothing else then', () => {
    const schedule = { validUntil: '2026-05-31', checkedOn: '2020-01-01' };
    assert.deepEqual(stale({ schedule }, 30), [['schedule', 'ended', '2026-05-31']]);
  });

  it('an event (hours only on dated special days) is over once its last date passed', () => {
    const dated = (...dates: string[]) => ({
      specialDays: dates.map((date) => ({ date, open: '10:00', close: '12:00' })),
    });
    assert.deepEqual(stale({ schedule: dated('2026-06-10', '2026-05-01') }), [
      ['schedule.specialDays', 'ended', '2026-06-10'],
    ]);
    assert.deepEqual(stale({ schedule: dated('2026-05-01', today) }), [], 'a date today is not over');
    const withHours = { ...dated('2026-05-01'), hours: [{ open: '09:00', close: '17:00' }] };
    assert.deepEqual(stale({ schedule: withHours }), [], 'a place with regular hours is no event');
    const withRule = {
      specialDays: [
        { date: '2026-05-01', closed: true },
        { rule: 'Easter Monday', closed: true },
      ],
    };
    assert.deepEqual(stale({ schedule: withRule }), [], 'a rule day recurs');
  });

  it('a timetable ends after timetableValidUntil', () => {
    assert.deepEqual(stale({ timetableValidUntil: '2026-06-14' }), [
      ['transport.timetableValidUntil', 'ended', '2026-06-14'],
    ]);
  });
});

describe('stale facts: not checked recently (only when olderThanDays is given)', () => {
  const checked = (on: string): Partial<DatedFacts> => ({
    factsCheckedOn: on,
    status: { state: 'partly_closed', checkedOn: on },
    fees: [{ label: 'Adult', checkedOn: on }],
    schedule: { checkedOn: on },
  });

  it('flags each fact checked before the cutoff, and none without olderThanDays', () => {
    assert.deepEqual(stale(checked('2026-01-01'), 90), [
      ['status', 'not_checked_recently', '2026-01-01'],
      ['fees[0]', 'not_checked_recently', '2026-01-01'],
      ['schedule', 'not_checked_recently', '2026-01-01'],
      ['factsCheckedOn', 'not_checked_recently', '2026-01-01'],
    ]);
    assert.deepEqual(stale(checked('2026-01-01')), []);
  });

  it('the cutoff day itself is recent enough', () => {
    const cutoff = daysBefore(today, 90);
    assert.equal(cutoff, '2026-03-17');
    assert.deepEqual(stale(checked(cutoff), 90), []);
    assert.equal(stale(checked(daysBefore(cutoff, 1)), 90).length, 4);
  });

  it('what ran out is reported as ended, not also as unchecked', () => {
    const facts = { status: { state: 'closed' as const, until: '2026-06-01', checkedOn: '2020-01-01' } };
    assert.deepEqual(stale(facts, 30), [['status', 'ended', '2026-06-01']]);
  });
});

describe('daysBefore', () => {
  it('crosses months, leap days and years', () => {
    assert.equal(daysBefore('2024-03-01', 1), '2024-02-29');
    assert.equal(daysBefore('2026-01-01', 1), '2025-12-31');
    assert.equal(daysBefore('2026-06-15', 0), '2026-06-15');
  });
});

describe('sortStaleFacts', () => {
  it('oldest first, then by kind, name and field', () => {
    const fact = (date: string, kind: StaleFact['kind'], name: string, field: string): StaleFact => ({
      kind,
      id: `${kind}-${name}`,
      name,
      field,
      reason: 'ended',
      date,
      detail: '',
    });
    const sorted = sortStaleFacts([
      fact('2026-02-01', 'spot', 'A', 'status'),
      fact('2026-01-01', 'spot', 'B', 'status'),
      fact('2026-01-01', 'place', 'Z', 'status'),
      fact('2026-01-01', 'spot', 'B', 'fees[0]'),
    ]);
    assert.deepEqual(
      sorted.map((f) => `${f.date} ${f.kind} ${f.name} ${f.field}`),
      [
        '2026-01-01 place Z status',
        '2026-01-01 spot B fees[0]',
        '2026-01-01 spot B status',
        '2026-02-01 spot A status',
      ],
    );
  });
});
