import { type ReadinessRule, readinessRules } from '../resources/publishing/index.ts';

/**
 * The lists of readiness codes people and assistants read, written from the rules table so they
 * cannot drift from it: a block of the playbook (between the two markers, rewritten by `npm run
 * docs`) and a section of the reference.
 */

export const PLAYBOOK_BEGIN = '<!-- finding codes, from readiness.rules.ts by npm run docs -->';
export const PLAYBOOK_END = '<!-- end of finding codes -->';

const sentence = (phrase: string) => `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;

const cell = (phrase: string) => sentence(phrase).replace(/\|/g, '\\|');

const bySeverity = (severity: ReadinessRule['severity']) => readinessRules.filter((r) => r.severity === severity);

/** The playbook's list: each code, when it fires and what clears it, blocking codes first. */
export function playbookFindingCodes(): string {
  const item = (rule: ReadinessRule) => `  - \`${rule.code}\`: ${rule.when}. To clear it: ${rule.clears}.`;
  return [
    PLAYBOOK_BEGIN,
    '- Blocking codes (each alone stops `publish_changes`):',
    ...bySeverity('blocking').map(item),
    '- Warning codes (a publish goes through; fix them or tell the creator):',
    ...bySeverity('warning').map(item),
    PLAYBOOK_END,
  ].join('\n');
}

/** The playbook with its list of codes written anew; refuses a playbook that lost its markers. */
export function withFindingCodes(playbook: string): string {
  const begin = playbook.indexOf(PLAYBOOK_BEGIN);
  const end = playbook.indexOf(PLAYBOOK_END);
  if (begin < 0 || end < begin) throw new Error('the playbook lost the markers around its list of finding codes');
  return playbook.slice(0, begin) + playbookFindingCodes() + playbook.slice(end + PLAYBOOK_END.length);
}

/** The reference's section: a table of every code. */
export function referenceFindingCodes(): string[] {
  return [
    '## Readiness findings',
    '',
    '`get_guide_readiness` lists these codes (`get_publish_status` shows the same as `blocking` and `warnings`, ' +
      'beside the `not_live` gate); blocking ones stop `publish_changes`.',
    '',
    '| code | severity | when | what clears it |',
    '|---|---|---|---|',
    ...readinessRules.map((r) => `| \`${r.code}\` | ${r.severity} | ${cell(r.when)} | ${cell(r.clears)} |`),
    '',
  ];
}
