import type { SortValue } from '../../core/paging.ts';
import { compareSortKeys } from '../../core/paging-sorted.ts';
import type { GuideContents } from './guide-contents.ts';
import { readinessRules } from './readiness.rules.ts';
import { GuideUnderReview, type Severity, type Where } from './readiness-rule.ts';

export { type FindingKind, findingKinds, type Severity } from './readiness-rule.ts';

/** Every code readiness can report: one per rule of the table. */
export type FindingCode = (typeof readinessRules)[number]['code'];
export const findingCodes = readinessRules.map((rule) => rule.code) as FindingCode[];
/** The codes that stop publish_changes and going on sale; tests prove each does so alone. */
export const blockingCodes = readinessRules.filter((rule) => rule.severity === 'blocking').map((rule) => rule.code);

/** One thing between the guide and its buyers: what, how bad, where, and what to do. */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  message: string;
  where: Where;
}

/**
 * The order findings are listed and paged in: blocking first, then by code, record name, field and
 * id. A cursor resumes after the key it holds, so fixing what one page showed never makes the next
 * page skip a finding.
 */
export const findingSortKey = (f: Finding): SortValue[] => [
  f.severity === 'blocking' ? 0 : 1,
  f.code,
  f.where.name,
  f.where.field,
  f.where.id,
];

/** Every finding on a guide's working copy on `today`, in findingSortKey order. */
export function readinessOf(contents: GuideContents, today: string): Finding[] {
  const guide = new GuideUnderReview(contents, today);
  const found: Finding[] = readinessRules.flatMap((rule) =>
    rule
      .find(guide)
      .map((hit) => ({ code: rule.code, severity: rule.severity, message: hit.message, where: hit.where })),
  );
  const keyed = found.map((finding) => ({ finding, key: findingSortKey(finding) }));
  return keyed.sort((a, b) => compareSortKeys(a.key, b.key)).map(({ finding }) => finding);
}
