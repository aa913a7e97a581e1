import type { Addresses } from '../../core/addresses.ts';

/**
 * The authoring playbook (docs/authoring-playbook.md, one file people read whole) served in topics:
 * an assistant reads the overview first, then the topic of the work at hand, instead of holding
 * 40 KB before its first call. Sections are found by their headings, so edits inside a section
 * need nothing here; a heading this table does not know fails test/profile/playbook.test.ts.
 */
export const playbookTopics = [
  {
    topic: 'guide',
    heading: 'Create and frame the guide',
    about: 'create_guide, the opening map, update_guide, store tags',
  },
  { topic: 'properties', heading: 'Custom spot properties', about: 'kinds, keys, options, conversions' },
  { topic: 'areas', heading: 'Areas', about: 'parks, islands, regions whose rules apply to their spots' },
  { topic: 'spots', heading: 'Spots', about: 'create_spot, upsert_spots, pins, map links, custom values' },
  { topic: 'places', heading: 'Places', about: 'stays, transport, tours, food, parking: kinds and sub-types' },
  { topic: 'routes', heading: 'Routes and hikes', about: 'routes, hikes, GPX tracks' },
  { topic: 'itineraries', heading: 'Itineraries', about: 'days and their stops' },
  { topic: 'chapters', heading: 'Chapters and collections', about: 'members, intro, pages' },
  { topic: 'photos', heading: 'Photos', about: 'uploads over REST, credits, update_media' },
  { topic: 'sales_page', heading: 'Sales page and price', about: 'the sales page draft, set_guide_price' },
  { topic: 'publishing', heading: 'Check, then publish', about: 'readiness findings, stale notices, publish_changes' },
  { topic: 'links', heading: 'Links', about: 'the link report, check_links, set_link_verified' },
  { topic: 'limits', heading: 'Limits', about: 'sizes, counts and rate limits' },
  { topic: 'errors', heading: 'Errors and what to do', about: 'each error code and what to do next' },
  { topic: 'editing', heading: 'Practical tips', about: 'what PATCH and PUT change, what clears, warnings, undo' },
] as const;

export type PlaybookTopic = (typeof playbookTopics)[number]['topic'];
export const topicNames = playbookTopics.map((t) => t.topic) as [PlaybookTopic, ...PlaybookTopic[]];
/** `overview` (the default) and `all` (the whole playbook) besides the topics. */
export const playbookAnswers = ['overview', ...topicNames, 'all'] as [
  'overview' | PlaybookTopic | 'all',
  ...Array<'overview' | PlaybookTopic | 'all'>,
];
export type PlaybookAnswer = (typeof playbookAnswers)[number];

/** Sections of the overview besides the preamble: what every session needs before its first edit. */
const OVERVIEW_HEADINGS = [
  'Rules you must keep',
  'Workflow: from an empty draft to publish',
  'Orient yourself',
  'Paging, compact views and filters',
];

interface Section {
  heading: string;
  markdown: string;
}

export interface Playbook {
  /** The title, version line and opening paragraphs, before the first section. */
  preamble: string;
  sections: readonly Section[];
  markdown: string;
}

/** Splits the playbook at its `##` and `###` headings (never inside a fenced block). */
export function parsePlaybook(markdown: string): Playbook {
  const lines = markdown.split('\n');
  const sections: Section[] = [];
  const preamble: string[] = [];
  let current: { heading: string; lines: string[] } | undefined;
  let fenced = false;
  for (const line of lines) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{2,3} (.+)$/.exec(line);
    if (heading?.[1] !== undefined) {
      if (current) sections.push({ heading: current.heading, markdown: current.lines.join('\n').trim() });
      current = { heading: withoutNumber(heading[1]), lines: [line] };
    } else if (current) current.lines.push(line);
    else preamble.push(line);
  }
  if (current) sections.push({ heading: current.heading, markdown: current.lines.join('\n').trim() });
  return { preamble: preamble.join('\n').trim(), sections, markdown };
}

/** "7. Routes and hikes" is found as "Routes and hikes": renumbering the workflow changes nothing here. */
function withoutNumber(heading: string): string {
  return heading.replace(/^\d+\.\s+/, '').trim();
}

/** The sections a topic (or the overview) is made of, in the playbook's order. */
export function sectionsOf(playbook: Playbook, answer: Exclude<PlaybookAnswer, 'all'>): Section[] {
  const wanted =
    answer === 'overview'
      ? (heading: string) => OVERVIEW_HEADINGS.includes(heading)
      : (heading: string) => heading.startsWith(playbookTopics.find((t) => t.topic === answer)?.heading ?? '\0');
  return playbook.sections.filter((s) => wanted(s.heading));
}

/** The answer's markdown: the overview with the list of topics, one topic, or everything. */
export function playbookMarkdown(playbook: Playbook, answer: PlaybookAnswer, addresses: Addresses): string {
  let markdown: string;
  if (answer === 'all') markdown = playbook.markdown;
  else if (answer === 'overview') {
    markdown = [playbook.preamble, ...sectionsOf(playbook, 'overview').map((s) => s.markdown), topicList()].join(
      '\n\n',
    );
  } else {
    const [title = '', versionLine = ''] = playbook.preamble.split('\n').filter((line) => line.trim() !== '');
    markdown = [
      `${title}: ${answer}`,
      `${versionLine} · topic \`${answer}\``,
      ...sectionsOf(playbook, answer).map((s) => s.markdown),
    ].join('\n\n');
  }
  return withAddresses(compactTables(markdown), addresses);
}

function topicList(): string {
  const lines = playbookTopics.map((t) => `- \`${t.topic}\`: ${t.about}`);
  return [
    '## Topics',
    'Read the topic of the work at hand before you start it: `get_authoring_guide` with `{"topic": "<name>"}` ' +
      '(`all` answers the whole playbook, about 40 KB).',
    lines.join('\n'),
  ].join('\n\n');
}

/** The placeholders the playbook writes for the service's addresses, as this service's own. */
function withAddresses(markdown: string, addresses: Addresses): string {
  return markdown.replaceAll('{base_url}', addresses.api).replaceAll('{mcp_url}', addresses.mcp);
}

/**
 * A table row padded for people reading the file ("| `code`   | 400    |") says the same with one
 * space: a third of the error table was padding.
 */
function compactTables(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => (line.startsWith('|') ? line.replace(/ {2,}/g, ' ').replace(/-{4,}/g, '---') : line))
    .join('\n');
}
