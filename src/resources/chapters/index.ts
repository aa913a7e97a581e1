import type { Resource } from '../../core/resource.ts';
import * as chaptersMigration from './chapter.migration.ts';
import { chapterOperations } from './chapter.operations.ts';
import type { OwnedChapter } from './chapter.store.ts';
import { ChaptersStore } from './chapter.store.ts';
import type { ChapterMembersTable, ChaptersTable } from './chapter.tables.ts';
import * as coverCreditMigration from './chapter-cover-credit.migration.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    chapters: ChaptersStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    chapters: ChaptersTable;
    chapter_members: ChapterMembersTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    chapters: OwnedChapter[];
  }
}

export const chaptersResource: Resource = {
  tag: { name: 'chapters', description: 'Chapters and collections: the order, intro and pages a reader follows' },
  operations: chapterOperations,
  history: {
    chapters: { kind: 'chapter', spliced: ['description', 'body', 'intro', 'pages'] },
    chapter_members: { kind: 'chapter', idColumn: 'chapter_id', part: true },
  },
  stores: { chapters: (scope) => new ChaptersStore(scope) },
  usesStores: ['media', 'spots'],
  references: [
    // Member lists and pages name spots (pages by key) and show photos; neither may name one that is gone.
    { to: 'spot', onDelete: (spot, ctx) => ctx.stores.chapters.removeSpot(spot.guideId, spot.spotId, spot.spotKey) },
    { to: 'photo', onDelete: (photo, ctx) => ctx.stores.chapters.removePhoto(photo.guideId, photo.mediaId) },
  ],
  guideParts: { chapters: (stores, guide) => stores.chapters.list(guide.id) },
  migrations: { '0007-chapters': chaptersMigration, '0017-chapter-cover-credit': coverCreditMigration },
};
export { emptyChapter } from './chapter.input.ts';
export { MEMBERS_MAX } from './chapter.schema.ts';
export { chapterCountOfGuide } from './chapter.store.ts';
