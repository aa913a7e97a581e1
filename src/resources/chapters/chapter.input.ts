import { refuse } from '../../core/errors.ts';
import { clearable } from '../../shared/text.ts';
import type { ChapterRules } from './chapter.rules.ts';
import type { ChapterFields } from './chapter.schema.ts';
import type { ChapterState } from './chapter.store.ts';
import { nonEmptyParagraphs } from './input-text.ts';
import { applyCoverCredit } from './photo-credit.ts';

export function emptyChapter(name: string): ChapterState {
  return {
    kind: 'collection',
    name,
    slug: null,
    description: null,
    body: [],
    intro: null,
    pages: [],
    coverStorageId: null,
  };
}

/**
 * The chapter after the fields sent (PATCH rules: only sent fields change, "" clears strings,
 * arrays replace whole). A kind change must lose nothing, so what the new kind cannot hold has to
 * be cleared first; `hasCards` says whether the chapter holds other chapters as cards.
 */
export async function applyChapterFields(
  current: ChapterState,
  fields: ChapterFields,
  rules: ChapterRules,
  self?: { id: string; hasCards: boolean },
): Promise<ChapterState> {
  const next: ChapterState = { ...current };
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.description !== undefined) next.description = clearable(fields.description);
  if (fields.kind !== undefined) next.kind = fields.kind;
  if (fields.body !== undefined) next.body = nonEmptyParagraphs(fields.body);
  if (fields.slug !== undefined) {
    const slug = clearable(fields.slug);
    const holder = slug === null ? undefined : await rules.slugHolder(slug);
    if (holder !== undefined && holder !== self?.id) {
      throw refuse('slug', `another chapter of this guide has the slug "${slug}"; choose another.`);
    }
    next.slug = slug;
  }
  if (fields.coverStorageId !== undefined && fields.coverStorageId !== null) {
    await rules.requireOwnImage('coverStorageId', fields.coverStorageId);
  }
  if (fields.coverStorageId !== undefined) next.coverStorageId = fields.coverStorageId;
  applyCoverCredit(current, next, fields, rules.warn);
  checkKind(current, next, fields, self?.hasCards ?? false);
  return next;
}

function checkKind(current: ChapterState, next: ChapterState, fields: ChapterFields, hasCards: boolean): void {
  const turned = fields.kind !== undefined && fields.kind !== current.kind;
  if (next.kind === 'collection') {
    if (next.body.length > 0) {
      throw turned
        ? refuse('kind', 'this chapter has a body, which a collection cannot hold: clear it first (body: []).')
        : refuse(
            'body',
            'only chapters carry a body; send kind "chapter" for prose (a collection is a plain set of spots).',
          );
    }
    if (next.intro !== null) {
      throw refuse(
        'kind',
        'this chapter has an intro, which a collection cannot hold: clear it first (set_chapter_intro with intro: null).',
      );
    }
    if (next.pages.length > 0) {
      throw refuse(
        'kind',
        'this chapter has pages, which a collection cannot hold: clear them first (set_chapter_pages with pages: []).',
      );
    }
  } else if (turned && hasCards) {
    throw refuse(
      'kind',
      'this collection shows other chapters as cards, which only a collection holds: remove them first with set_chapter_members.',
    );
  }
}
