import { compareSortKeys } from '../../core/paging-sorted.ts';
import type { Fee } from '../../shared/fees.ts';
import type { Schedule } from '../../shared/schedule.ts';
import type { StatusNotice } from '../../shared/status.ts';

export type StaleReason = 'review_due' | 'ended' | 'not_checked_recently';

/** One fact that went stale: what, where, why, since when, and what to do about it. */
export interface StaleFact {
  kind: 'spot' | 'place' | 'area' | 'route';
  id: string;
  name: string;
  field: string;
  reason: StaleReason;
  date: string;
  detail: string;
}

/** The dated facts a row carries; each resource maps its records onto this. */
export interface DatedFacts {
  kind: StaleFact['kind'];
  id: string;
  name: string;
  status?: StatusNotice | null;
  fees?: readonly Fee[];
  schedule?: Schedule | null;
  reviewBy?: string | null;
  factsCheckedOn?: string | null;
  timetableValidUntil?: string | null;
}

export function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The stale facts of one row on `today`: notices and validity windows that ran out, reviews that
 * fell due, and, with `olderThanDays`, facts last checked before that many days ago. Dates are
 * YYYY-MM-DD, so text order is date order.
 */
export function staleFactsOf(row: DatedFacts, today: string, olderThanDays?: number): StaleFact[] {
  const found: StaleFact[] = [];
  const add = (field: string, reason: StaleReason, date: string, detail: string) =>
    found.push({ kind: row.kind, id: row.id, name: row.name, field, reason, date, detail });
  const cutoff = olderThanDays === undefined ? undefined : daysBefore(today, olderThanDays);
  const checkedLongAgo = (checkedOn: string | undefined | null): checkedOn is string =>
    cutoff !== undefined && typeof checkedOn === 'string' && checkedOn < cutoff;

  if (row.reviewBy && row.reviewBy < today) {
    add(
      'reviewBy',
      'review_due',
      row.reviewBy,
      `Review was due on ${row.reviewBy}: check the facts, then set a new reviewBy.`,
    );
  }
  const status = row.status;
  if (status?.until && status.until < today) {
    add(
      'status',
      'ended',
      status.until,
      `The ${status.state} notice ran until ${status.until}; buyers no longer see it. Remove it or give a new until.`,
    );
  } else if (checkedLongAgo(status?.checkedOn)) {
    add(
      'status',
      'not_checked_recently',
      status.checkedOn as string,
      `The ${status?.state} notice was last checked on ${status?.checkedOn}: check it again and update checkedOn.`,
    );
  }
  for (const [i, fee] of (row.fees ?? []).entries()) {
    if (fee.validUntil && fee.validUntil < today) {
      add(
        `fees[${i}]`,
        'ended',
        fee.validUntil,
        `The fee "${fee.label}" was valid until ${fee.validUntil}: look up the current amount.`,
      );
    } else if (checkedLongAgo(fee.checkedOn)) {
      add(
        `fees[${i}]`,
        'not_checked_recently',
        fee.checkedOn as string,
        `The fee "${fee.label}" was last checked on ${fee.checkedOn}: check it again and update checkedOn.`,
      );
    }
  }
  staleSchedule(row.schedule, today, checkedLongAgo, add);
  if (row.timetableValidUntil && row.timetableValidUntil < today) {
    add(
      'transport.timetableValidUntil',
      'ended',
      row.timetableValidUntil,
      `The timetable ran out on ${row.timetableValidUntil}: link the current one and its validity.`,
    );
  }
  if (checkedLongAgo(row.factsCheckedOn)) {
    add(
      'factsCheckedOn',
      'not_checked_recently',
      row.factsCheckedOn,
      `The facts were last checked on ${row.factsCheckedOn}: check them again and update factsCheckedOn.`,
    );
  }
  return found;
}

function staleSchedule(
  schedule: Schedule | null | undefined,
  today: string,
  checkedLongAgo: (d: string | undefined | null) => boolean,
  add: (field: string, reason: StaleReason, date: string, detail: string) => void,
): void {
  if (!schedule) return;
  if (schedule.validUntil && schedule.validUntil < today) {
    add(
      'schedule',
      'ended',
      schedule.validUntil,
      `The opening hours were valid until ${schedule.validUntil}: look up the current hours.`,
    );
    return;
  }
  // An event: hours only on dated special days. Once every date passed, the event is over.
  const days = schedule.specialDays ?? [];
  const dates = days.map((d) => d.date).filter((d): d is string => d !== undefined);
  const onlyDated = (schedule.hours ?? []).length === 0 && dates.length > 0 && dates.length === days.length;
  const last = dates.sort().at(-1);
  if (onlyDated && last !== undefined && last < today) {
    add(
      'schedule.specialDays',
      'ended',
      last,
      `Every date of this event has passed (the last was ${last}): add the next dates or archive it.`,
    );
  } else if (checkedLongAgo(schedule.checkedOn)) {
    add(
      'schedule',
      'not_checked_recently',
      schedule.checkedOn as string,
      `The opening hours were last checked on ${schedule.checkedOn}: check them again and update checkedOn.`,
    );
  }
}

/** Oldest first, then by kind and name, so the most overdue facts lead. */
/** The order stale facts are listed and paged in; staleFactSortKey is the same order as a keyset key. */
export const staleFactSortKey = (f: StaleFact) => [f.date, f.kind, f.name, f.field, f.id];

export function sortStaleFacts(facts: StaleFact[]): StaleFact[] {
  return facts.sort((a, b) => compareSortKeys(staleFactSortKey(a), staleFactSortKey(b)));
}
