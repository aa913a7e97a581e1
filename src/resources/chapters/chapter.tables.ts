/**
 * Rows of the chapters resource. The record's structured parts (body, intro, pages) are JSON text;
 * members are a table so that deleting a spot or a chapter takes its links along (ON DELETE CASCADE).
 */
export interface ChaptersTable {
  id: string;
  guide_id: string;
  kind: 'chapter' | 'collection';
  name: string;
  /** Stored lower case; unique within the guide where set. */
  slug: string | null;
  description: string | null;
  /** JSON array of paragraphs. */
  body: string;
  /** JSON ChapterIntro, or null. */
  intro: string | null;
  /** JSON array of pages. */
  pages: string;
  cover_storage_id: string | null;
  /** The cover's credit, its link and licence: set only while there is a cover. */
  cover_credit: string | null;
  cover_credit_url: string | null;
  cover_licence: string | null;
  order_key: number;
  created_at: number;
  updated_at: number;
}

/** One member of a chapter: a spot or another chapter shown as a card; exactly one of the two. */
export interface ChapterMembersTable {
  chapter_id: string;
  /** 1, 2, 3… in reading order. */
  position: number;
  spot_id: string | null;
  member_chapter_id: string | null;
}
