import type { OperationContext } from '../../core/operation.ts';
import { type AnswerForm, answersFull } from '../../core/write-answer.ts';
import { fileUrl, mediaPath } from '../media/index.ts';
import { type Chapter, type CompactChapter, MEMBERS_SHOWN } from './chapter.schema.ts';
import type { OwnedChapter } from './chapter.store.ts';

/** The record buyers' editors read, keys in the specification's order. */
function publicChapter(chapter: OwnedChapter, coverUrls: ReadonlyMap<string, string>): Chapter {
  return {
    collectionId: chapter.id,
    productId: chapter.guideId,
    name: chapter.name,
    slug: chapter.slug,
    description: chapter.description,
    kind: chapter.kind,
    body: chapter.body,
    intro: chapter.intro,
    pages: chapter.pages,
    order: chapter.order,
    coverUrl: chapter.coverStorageId === null ? null : (coverUrls.get(chapter.coverStorageId) ?? null),
    coverStorageId: chapter.coverStorageId,
    coverCredit: chapter.coverCredit ?? null,
    coverCreditUrl: chapter.coverCreditUrl ?? null,
    coverLicence: chapter.coverLicence ?? null,
    members: chapter.members,
    memberCount: chapter.members.length,
    createdAt: chapter.createdAt,
    updatedAt: chapter.updatedAt,
  };
}

/** Where buyers load each cover from: the large rendition of the stored image, by storageId. */
export async function coverUrlsOf(
  ctx: Pick<OperationContext, 'stores' | 'principal' | 'urls'>,
  storageIds: ReadonlyArray<string | null>,
): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const storageId of new Set(storageIds)) {
    if (storageId === null) continue;
    const image = await ctx.stores.media.blobOf(ctx.principal.creatorId, storageId);
    if (image) urls.set(storageId, fileUrl(ctx.urls, mediaPath(image.files.large)));
  }
  return urls;
}

/** Chapter records as answered, each with its cover's address. */
export async function chapterAnswers(
  ctx: Pick<OperationContext, 'stores' | 'principal' | 'urls'>,
  chapters: OwnedChapter[],
  allMembers = false,
): Promise<Chapter[]> {
  const covers = await coverUrlsOf(
    ctx,
    chapters.map((c) => c.coverStorageId),
  );
  // A chapter may hold 2,500 members: answers list the first ones and count them all.
  return chapters.map((chapter) => {
    const answer = publicChapter(chapter, covers);
    return allMembers ? answer : { ...answer, members: answer.members.slice(0, MEMBERS_SHOWN) };
  });
}

export async function chapterAnswer(
  ctx: Pick<OperationContext, 'stores' | 'principal' | 'urls'>,
  chapter: OwnedChapter,
): Promise<Chapter> {
  const [answer] = await chapterAnswers(ctx, [chapter]);
  return answer as Chapter;
}

/** A chapter in list_chapters' compact view and in compact write answers: what picks it out, its members counted. */
export function compactChapter({
  collectionId,
  kind,
  name,
  slug,
  order,
  updatedAt,
  memberCount,
}: Chapter): CompactChapter {
  return { collectionId, kind, name, slug, order, updatedAt, memberCount };
}

/**
 * What a write of a chapter's members, intro or pages answers: compact unless asked full, since
 * the members, sections and pages are what was just sent (and may be 2,500 members).
 */
export async function chapterWriteAnswer(
  ctx: Pick<OperationContext, 'stores' | 'principal' | 'urls'>,
  chapter: OwnedChapter,
  answer: AnswerForm,
): Promise<Chapter | CompactChapter> {
  const full = await chapterAnswer(ctx, chapter);
  return answersFull({ answer }) ? full : compactChapter(full);
}
