import { refuse } from '../../core/errors.ts';
import type { ChapterRules } from './chapter.rules.ts';
import { filled, nonEmptyParagraphs } from './input-text.ts';
import type { ChapterIntro, IntroItem, IntroSection } from './intro.schema.ts';
import { creditFor } from './photo-credit.ts';

const BASE = 'intro';

/**
 * The intro as stored, or null. An intro with no cover field and no section is stored as null, so
 * "has an intro" means one thing (a kind change checks it). Empty optional texts are left out.
 */
export async function normaliseIntro(intro: ChapterIntro | null, rules: ChapterRules): Promise<ChapterIntro | null> {
  if (intro === null) return null;
  const out: ChapterIntro = { sections: [] };
  const coverKicker = filled(intro.coverKicker);
  const coverTitle = filled(intro.coverTitle);
  const coverAuthor = filled(intro.coverAuthor);
  if (coverKicker !== undefined) out.coverKicker = coverKicker;
  if (coverTitle !== undefined) out.coverTitle = coverTitle;
  if (coverAuthor !== undefined) out.coverAuthor = coverAuthor;
  if (intro.coverAuthorPhotoStorageId !== undefined) {
    await rules.requireOwnImage(`${BASE}.coverAuthorPhotoStorageId`, intro.coverAuthorPhotoStorageId);
    out.coverAuthorPhotoStorageId = intro.coverAuthorPhotoStorageId;
  }
  const known = await rules.chapterKinds(intro.sections.flatMap((s) => s.items?.map((i) => i.collectionId) ?? []));
  for (const [i, section] of intro.sections.entries()) {
    out.sections.push(await writeSection(section, `${BASE}.sections[${i}]`, known, rules));
  }
  const empty = out.sections.length === 0 && Object.keys(out).length === 1;
  return empty ? null : out;
}

async function writeSection(
  section: IntroSection,
  path: string,
  known: ReadonlyMap<string, unknown>,
  rules: ChapterRules,
): Promise<IntroSection> {
  const kind = section.kind ?? 'prose';
  const out: IntroSection = { kind, title: section.title };
  const kicker = filled(section.kicker);
  const deck = filled(section.deck);
  if (kicker !== undefined) out.kicker = kicker;
  if (deck !== undefined) out.deck = deck;
  if (kind !== 'prose') {
    for (const field of ['paragraphs', 'cells', 'photoStorageId', 'photoCredit'] as const) {
      if (section[field] !== undefined) {
        throw refuse(`${path}.${field}`, `only prose sections carry ${field}; a ${kind} section lists items.`);
      }
    }
    out.items = await writeItems(section.items ?? [], kind, `${path}.items`, known, rules);
    return out;
  }
  if (section.items !== undefined) {
    throw refuse(`${path}.items`, 'only chapters and collections sections carry items; set kind, or leave items out.');
  }
  const paragraphs = nonEmptyParagraphs(section.paragraphs ?? []);
  const cells = section.cells ?? [];
  if (cells.length > 0 && paragraphs.length > 0) {
    throw refuse(
      `${path}.cells`,
      'a section with cells carries no paragraphs: put the text in the cells, or in a section of its own.',
    );
  }
  if (cells.length > 0 && section.photoStorageId !== undefined) {
    throw refuse(
      `${path}.photoStorageId`,
      'a section with cells carries no photo: give the photo a section of its own.',
    );
  }
  if (paragraphs.length > 0) out.paragraphs = paragraphs;
  if (cells.length > 0) out.cells = cells.map((c) => (filled(c.body) === undefined ? { title: c.title } : c));
  if (section.photoStorageId !== undefined) {
    await rules.requireOwnImage(`${path}.photoStorageId`, section.photoStorageId);
    out.photoStorageId = section.photoStorageId;
  }
  const credit = creditFor(path, section.photoStorageId, section.photoCredit, rules.warn);
  if (credit !== undefined) out.photoCredit = credit;
  return out;
}

async function writeItems(
  items: readonly IntroItem[],
  kind: 'chapters' | 'collections',
  path: string,
  known: ReadonlyMap<string, unknown>,
  rules: ChapterRules,
): Promise<IntroItem[]> {
  const seen = new Map<string, number>();
  const out: IntroItem[] = [];
  for (const [j, item] of items.entries()) {
    const at = `${path}[${j}]`;
    const first = seen.get(item.collectionId);
    if (first !== undefined) throw refuse(`${at}.collectionId`, `is already item ${first} of this section.`);
    seen.set(item.collectionId, j);
    if (!known.has(item.collectionId)) throw refuse(`${at}.collectionId`, 'no chapter of this guide has this id.');
    const wrong = kind === 'chapters' ? (['photoStorageId', 'photoCredit'] as const) : (['line', 'color'] as const);
    for (const field of wrong) {
      if (item[field] !== undefined) throw refuse(`${at}.${field}`, `a ${kind} section's items carry no ${field}.`);
    }
    const written: IntroItem = { collectionId: item.collectionId };
    const title = filled(item.title);
    const line = filled(item.line);
    if (title !== undefined) written.title = title;
    if (line !== undefined) written.line = line;
    if (item.color !== undefined) written.color = item.color.toLowerCase();
    if (item.photoStorageId !== undefined) {
      await rules.requireOwnImage(`${at}.photoStorageId`, item.photoStorageId);
      written.photoStorageId = item.photoStorageId;
    }
    const credit = creditFor(at, item.photoStorageId, item.photoCredit, rules.warn);
    if (credit !== undefined) written.photoCredit = credit;
    out.push(written);
  }
  return out;
}
