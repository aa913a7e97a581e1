import { datedRows } from './dated-rows.ts';
import type { GuideContents, SpotRow } from './guide-contents.ts';
import { type DatedFacts, type StaleFact, staleFactsOf } from './staleness.ts';

export type Severity = 'blocking' | 'warning';

export const findingKinds = [
  'guide',
  'spot',
  'place',
  'area',
  'route',
  'chapter',
  'photo',
  'property',
  'itinerary',
  'link',
] as const;
export type FindingKind = (typeof findingKinds)[number];

/** The record a finding is about and the field path in it. */
export interface Where {
  kind: FindingKind;
  id: string;
  name: string;
  field: string;
}

/** What a rule found: where, and a sentence saying what is wrong and what clears it. */
export interface Hit {
  where: Where;
  message: string;
}

/**
 * One readiness rule: one code, its severity, and how it looks for the code on a guide. `when` and
 * `clears` are what the playbook and the reference show for the code; each message a rule writes
 * says the same fix for the record at hand, so doing what it says makes the finding go.
 */
export interface ReadinessRule<Code extends string = string> {
  code: Code;
  /** blocking stops publish_changes and going on sale; warning does not. */
  severity: Severity;
  /** When the rule fires, as a phrase (no full stop). */
  when: string;
  /** What clears it, as a phrase (no full stop). */
  clears: string;
  find(guide: GuideUnderReview): Hit[];
}

/** Declares a rule, keeping its code a literal type (the table's codes become FindingCode). */
export function readinessRule<const Code extends string>(rule: ReadinessRule<Code>): ReadinessRule<Code> {
  return rule;
}

/** A stale fact and the row it was found on. */
export interface StaleOf {
  fact: StaleFact;
  row: DatedFacts;
}

/** A fact last checked longer ago than this may have changed (fees). */
export const FACTS_UNCHECKED_DAYS = 365;

/**
 * The working copy as the rules see it: the contents read once, and what several rules derive
 * (the spots buyers can open, the dated facts and which of them went stale) computed once.
 */
export class GuideUnderReview {
  readonly contents: GuideContents;
  readonly today: string;
  #liveSpots?: SpotRow[];
  #datedRows?: DatedFacts[];
  #staleFacts?: StaleOf[];

  constructor(contents: GuideContents, today: string) {
    this.contents = contents;
    this.today = today;
  }

  /** The spots buyers can open: the unarchived ones. */
  get liveSpots(): SpotRow[] {
    this.#liveSpots ??= this.contents.spots.filter((spot) => !spot.archived);
    return this.#liveSpots;
  }

  /** The dated facts of what buyers see: unarchived spots, places, areas and routes. */
  get datedRows(): DatedFacts[] {
    this.#datedRows ??= datedRows(
      this.liveSpots,
      this.contents.places,
      this.contents.guide.areas,
      this.contents.routes,
    );
    return this.#datedRows;
  }

  /** What ran out on `today`, and facts last checked more than a year before it, each with its row. */
  get staleFacts(): StaleOf[] {
    this.#staleFacts ??= this.datedRows.flatMap((row) =>
      staleFactsOf(row, this.today, FACTS_UNCHECKED_DAYS).map((fact) => ({ fact, row })),
    );
    return this.#staleFacts;
  }

  /** The guide itself, at one of its fields. */
  guideAt(field: string): Where {
    return { kind: 'guide', id: this.contents.guide.productId, name: this.contents.guide.name, field };
  }
}
