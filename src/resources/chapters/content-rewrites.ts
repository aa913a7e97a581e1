import type { ChapterIntro } from './intro.schema.ts';
import type { Page, PageBlock } from './page.schema.ts';

// What deleting a spot, a photo or a chapter does to the content of the chapters that name it: the
// store rewrites every such chapter in the same transaction as the delete.

/** The intro without items naming a deleted chapter; the same object when none did. */
export function withoutChapter(intro: ChapterIntro, chapterId: string): ChapterIntro {
  const named = intro.sections.some((s) => s.items?.some((i) => i.collectionId === chapterId));
  if (!named) return intro;
  return {
    ...intro,
    sections: intro.sections.map((s) =>
      s.items === undefined ? s : { ...s, items: s.items.filter((i) => i.collectionId !== chapterId) },
    ),
  };
}

/**
 * The pages once a spot is deleted: its cards go, maps lose it (a map left empty goes), and a page
 * left with no block goes. The same array when nothing named the spot.
 */
export function withoutSpot(pages: Page[], spotKey: string): Page[] {
  const names = (b: PageBlock) =>
    (b.kind === 'spot' && b.spotKey === spotKey) || (b.kind === 'map' && b.spotKeys.includes(spotKey));
  if (!pages.some((p) => p.blocks.some(names))) return pages;
  return pages
    .map((page) => ({
      ...page,
      blocks: page.blocks.flatMap((b): PageBlock[] => {
        if (b.kind === 'spot') return b.spotKey === spotKey ? [] : [b];
        if (b.kind !== 'map') return [b];
        const spotKeys = b.spotKeys.filter((k) => k !== spotKey);
        return spotKeys.length === 0 ? [] : [{ ...b, spotKeys }];
      }),
    }))
    .filter((page) => page.blocks.length > 0);
}

/** Pages without the photo blocks that show this photo (media row); pages left empty go too. */
export function withoutPhoto(pages: Page[], mediaId: string): Page[] {
  const names = (b: PageBlock) => b.kind === 'photo' && b.mediaId === mediaId;
  if (!pages.some((p) => p.blocks.some(names))) return pages;
  return pages
    .map((page) => ({ ...page, blocks: page.blocks.filter((b) => !names(b)) }))
    .filter((page) => page.blocks.length > 0);
}
