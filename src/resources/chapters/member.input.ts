import { refuse } from '../../core/errors.ts';
import type { ChapterRules } from './chapter.rules.ts';
import type { MemberRef, OwnedChapter } from './chapter.store.ts';

export interface MemberInput {
  spotKey?: string | undefined;
  memberCollectionId?: string | undefined;
  order?: number | undefined;
}

/**
 * The members to store, in reading order: each a spot of this guide (archived allowed) or, in a
 * collection, another chapter of this guide shown as a card; each once; never the chapter itself.
 */
export async function normaliseMembers(
  chapter: OwnedChapter,
  members: readonly MemberInput[],
  rules: ChapterRules,
): Promise<MemberRef[]> {
  const ordered = members.filter((m) => m.order !== undefined).length;
  if (ordered !== 0 && ordered !== members.length) {
    const i = members.findIndex((m) => m.order === undefined);
    throw refuse(`members[${i}].order`, 'give order on every member or on none.');
  }
  const spots = await rules.spotsByKey(members.flatMap((m) => (m.spotKey === undefined ? [] : [m.spotKey])));
  const kinds = await rules.chapterKinds(members.flatMap((m) => m.memberCollectionId ?? []));
  const seen = new Map<string, number>();
  const refs = members.map((member, i): MemberRef => {
    const path = `members[${i}]`;
    if ((member.spotKey === undefined) === (member.memberCollectionId === undefined)) {
      throw refuse(`${path}.spotKey`, 'a member is a spotKey or a memberCollectionId: give exactly one.');
    }
    const field = member.spotKey === undefined ? 'memberCollectionId' : 'spotKey';
    const id = (member.spotKey ?? member.memberCollectionId) as string;
    const first = seen.get(`${field} ${id}`);
    if (first !== undefined) throw refuse(`${path}.${field}`, `is already members[${first}].`);
    seen.set(`${field} ${id}`, i);
    if (member.spotKey !== undefined) {
      const spot = spots.get(member.spotKey);
      if (!spot) throw refuse(`${path}.spotKey`, `no spot of this guide has the key "${member.spotKey}".`);
      return { spotId: spot.spotId };
    }
    if (id === chapter.id) throw refuse(`${path}.memberCollectionId`, 'a chapter cannot contain itself.');
    if (!kinds.has(id)) throw refuse(`${path}.memberCollectionId`, 'no other chapter of this guide has this id.');
    if (chapter.kind !== 'collection') {
      throw refuse(
        `${path}.memberCollectionId`,
        'only a collection shows other chapters as cards; a chapter lists spots.',
      );
    }
    return { chapterId: id };
  });
  if (ordered === 0) return refs;
  // A stable sort: members with equal orders keep the order they were sent in.
  return refs
    .map((ref, i) => ({ ref, order: members[i]?.order as number }))
    .sort((a, b) => a.order - b.order)
    .map((m) => m.ref);
}
