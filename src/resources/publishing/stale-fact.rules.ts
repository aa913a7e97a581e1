import { type GuideUnderReview, type Hit, readinessRule } from './readiness-rule.ts';
import type { DatedFacts, StaleFact } from './staleness.ts';

/** The write that changes each kind of dated row. */
const editOf: Record<DatedFacts['kind'], string> = {
  spot: 'update_spot',
  place: 'update_facility',
  area: 'set_area (send the whole area, as list_areas reads it)',
  route: 'update_route',
};

const whereOf = (fact: Pick<StaleFact, 'kind' | 'id' | 'name' | 'field'>): Hit['where'] => ({
  kind: fact.kind,
  id: fact.id,
  name: fact.name,
  field: fact.field,
});

/** The stale facts of one kind (as list_stale_notices finds them), each written as `message` says. */
function staleHits(
  guide: GuideUnderReview,
  matches: (fact: StaleFact) => boolean,
  message: (fact: StaleFact, edit: string, row: DatedFacts) => string,
): Hit[] {
  return guide.staleFacts
    .filter(({ fact }) => matches(fact))
    .map(({ fact, row }) => ({ where: whereOf(fact), message: message(fact, editOf[fact.kind], row) }));
}

const isFeeField = (field: string) => field.startsWith('fees[');

/** The label of the fee a stale fact at `fees[i]` names. */
const feeLabel = (fact: StaleFact, row: DatedFacts) => row.fees?.[Number(fact.field.slice('fees['.length, -1))]?.label;

export const reviewDue = readinessRule({
  code: 'review_due',
  severity: 'warning',
  when: 'a spot, place or route is past its `reviewBy` date',
  clears: 'check its facts with the creator or a source, then set a new `reviewBy`',
  find: (guide) =>
    staleHits(
      guide,
      (fact) => fact.reason === 'review_due',
      (fact, edit) =>
        `"${fact.name}" was due for review on ${fact.date}: check its facts, then set a new reviewBy with ${edit}.`,
    ),
});

export const feeExpired = readinessRule({
  code: 'fee_expired',
  severity: 'warning',
  when: 'a fee is past its `validUntil`',
  clears: 'look up the current fee and send it with a new `validUntil` (or none) and `checkedOn`',
  find: (guide) =>
    staleHits(
      guide,
      (fact) => fact.reason === 'ended' && isFeeField(fact.field),
      (fact, edit, row) =>
        `The fee "${feeLabel(fact, row)}" of "${fact.name}" was valid until ${fact.date}: look up the current ` +
        `fee and send it with a new validUntil (or none) and checkedOn, with ${edit}.`,
    ),
});

export const feeUnchecked = readinessRule({
  code: 'fee_unchecked',
  severity: 'warning',
  when: 'a fee has no `checkedOn` (never checked), or was last checked more than a year ago',
  clears: 'check the fee against its source and send it with `checkedOn` set to the day you checked it',
  find(guide) {
    const checkedLongAgo = staleHits(
      guide,
      (fact) => fact.reason === 'not_checked_recently' && isFeeField(fact.field),
      (fact, edit, row) =>
        `The fee "${feeLabel(fact, row)}" of "${fact.name}" was last checked on ${fact.date}, more than a ` +
        `year ago: check it again and send it with a new checkedOn, with ${edit}.`,
    );
    const neverChecked: Hit[] = [];
    for (const row of guide.datedRows) {
      (row.fees ?? []).forEach((fee, i) => {
        // A fee past validUntil is fee_expired: one finding, one fix.
        if (fee.checkedOn || (fee.validUntil && fee.validUntil < guide.today)) return;
        neverChecked.push({
          where: whereOf({ ...row, field: `fees[${i}]` }),
          message:
            `The fee "${fee.label}" of "${row.name}" was never checked (it has no checkedOn), so buyers see no ` +
            `as-of date: check it against its source and send it with checkedOn, with ${editOf[row.kind]}.`,
        });
      });
    }
    return [...checkedLongAgo, ...neverChecked];
  },
});

export const statusExpired = readinessRule({
  code: 'status_expired',
  severity: 'warning',
  when: 'a status notice is past its `until`; buyers no longer see it',
  clears: 'remove the notice (`status: null`) or give it a new `until`',
  find: (guide) =>
    staleHits(
      guide,
      (fact) => fact.reason === 'ended' && fact.field === 'status',
      (fact, edit) =>
        `The status notice of "${fact.name}" ran until ${fact.date}, so buyers no longer see it: remove it ` +
        `(status: null) or give it a new until, with ${edit}.`,
    ),
});

export const scheduleExpired = readinessRule({
  code: 'schedule_expired',
  severity: 'warning',
  when: 'opening hours are past their `validUntil`',
  clears: 'look up the current hours and send the schedule with a new `validUntil` (or none) and `checkedOn`',
  find: (guide) =>
    staleHits(
      guide,
      (fact) => fact.reason === 'ended' && fact.field === 'schedule',
      (fact, edit) =>
        `The opening hours of "${fact.name}" were valid until ${fact.date}: look up the current hours and send the ` +
        `schedule with a new validUntil (or none) and checkedOn, with ${edit}.`,
    ),
});

export const eventOver = readinessRule({
  code: 'event_over',
  severity: 'warning',
  when: "every dated day of an event's schedule (special days only, no hours) has passed",
  clears:
    'add the next dates to `schedule.specialDays`; if it will not come again, archive the spot (a place: clear its schedule)',
  find: (guide) =>
    staleHits(
      guide,
      (fact) => fact.reason === 'ended' && fact.field === 'schedule.specialDays',
      (fact, edit) =>
        `Every date of the event "${fact.name}" has passed (the last was ${fact.date}): add the next dates to ` +
        `schedule.specialDays with ${edit}, or, if it will not come again, ` +
        `${fact.kind === 'spot' ? 'archive the spot' : 'clear its schedule'}.`,
    ),
});

export const timetableExpired = readinessRule({
  code: 'timetable_expired',
  severity: 'warning',
  when: "a place's `transport.timetableValidUntil` has passed",
  clears: 'link the current timetable and set its `timetableValidUntil`',
  find: (guide) =>
    staleHits(
      guide,
      (fact) => fact.reason === 'ended' && fact.field === 'transport.timetableValidUntil',
      (fact, edit) =>
        `The timetable of "${fact.name}" ran out on ${fact.date}: link the current one and set its ` +
        `timetableValidUntil with ${edit}.`,
    ),
});

/** The rules over dated facts, each code once. */
export const staleFactRules = [
  feeExpired,
  feeUnchecked,
  statusExpired,
  scheduleExpired,
  eventOver,
  timetableExpired,
  reviewDue,
];
