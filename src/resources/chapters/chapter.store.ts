import type { ExpressionBuilder, Selectable } from 'kysely';
import { recordTable } from '../../core/guide-records.ts';
import { groupedBy } from '../../db/grouped.ts';
import type { Database } from '../../db/tables.ts';
import { OrderedRecordsStore } from '../../shared/ordered-records.ts';
import type { ChapterKind, Member } from './chapter.schema.ts';
import type { ChaptersTable } from './chapter.tables.ts';
import { withoutChapter, withoutPhoto, withoutSpot } from './content-rewrites.ts';
import type { ChapterIntro } from './intro.schema.ts';
import type { Page } from './page.schema.ts';

/** What a chapter holds, as the writers see it: ids, order, members and times aside. */
export interface ChapterState {
  kind: ChapterKind;
  name: string;
  slug: string | null;
  description: string | null;
  body: string[];
  intro: ChapterIntro | null;
  pages: Page[];
  coverStorageId: string | null;
  /**
   * The cover's credit, link and licence, absent while unset: so a chapter without them reads (and
   * hashes into a release) exactly as before they existed.
   */
  coverCredit?: string;
  coverCreditUrl?: string;
  coverLicence?: string;
}

export interface OwnedChapter extends ChapterState {
  id: string;
  guideId: string;
  order: number;
  members: Member[];
  createdAt: number;
  updatedAt: number;
}

/** A member to store: a spot, or another chapter shown as a card. */
export type MemberRef = { spotId: string; chapterId?: undefined } | { chapterId: string; spotId?: undefined };

/** Rows per insert: well under both dialects' limits on bound parameters. */
const CHUNK = 500;

function toColumns(state: ChapterState) {
  return {
    kind: state.kind,
    name: state.name,
    slug: state.slug,
    description: state.description,
    body: JSON.stringify(state.body),
    intro: state.intro === null ? null : JSON.stringify(state.intro),
    pages: JSON.stringify(state.pages),
    cover_storage_id: state.coverStorageId,
    cover_credit: state.coverCredit ?? null,
    cover_credit_url: state.coverCreditUrl ?? null,
    cover_licence: state.coverLicence ?? null,
  };
}

function toChapter(row: Selectable<ChaptersTable>, members: Member[]): OwnedChapter {
  return {
    id: row.id,
    guideId: row.guide_id,
    kind: row.kind,
    name: row.name,
    slug: row.slug,
    description: row.description,
    body: JSON.parse(row.body) as string[],
    intro: row.intro === null ? null : (JSON.parse(row.intro) as ChapterIntro),
    pages: JSON.parse(row.pages) as Page[],
    coverStorageId: row.cover_storage_id,
    ...(row.cover_credit !== null && { coverCredit: row.cover_credit }),
    ...(row.cover_credit_url !== null && { coverCreditUrl: row.cover_credit_url }),
    ...(row.cover_licence !== null && { coverLicence: row.cover_licence }),
    order: Number(row.order_key),
    members,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Chapters, collections and their members. All SQL about them lives here. */
export class ChaptersStore extends OrderedRecordsStore<'chapters', OwnedChapter> {
  protected readonly records = recordTable('chapters', 'chapter', (rows) => this.withMembers(rows));

  private async withMembers(rows: Selectable<ChaptersTable>[]): Promise<OwnedChapter[]> {
    const members = await this.membersOf(rows.map((r) => r.id));
    return rows.map((row) => toChapter(row, members.get(row.id) ?? []));
  }

  private async membersOf(chapterIds: readonly string[]): Promise<Map<string, Member[]>> {
    if (chapterIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('chapter_members')
      .leftJoin('spots', 'spots.id', 'chapter_members.spot_id')
      .select([
        'chapter_members.chapter_id',
        'chapter_members.position',
        'chapter_members.member_chapter_id',
        'spots.spot_key',
      ])
      .where('chapter_members.chapter_id', 'in', chapterIds)
      .orderBy('chapter_members.position')
      .execute();
    return groupedBy(
      chapterIds,
      rows,
      (row) => row.chapter_id,
      (row) => ({ spotKey: row.spot_key, memberCollectionId: row.member_chapter_id, order: Number(row.position) }),
    );
  }

  /** The chapter of this guide holding the slug, if any. */
  async slugHolder(guideId: string, slug: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('chapters')
      .select('id')
      .where('guide_id', '=', guideId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row?.id;
  }

  /** The kinds of the given ids that are chapters of this guide; others are absent. */
  async kindsIn(guideId: string, ids: readonly string[]): Promise<Map<string, ChapterKind>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('chapters')
      .select(['id', 'kind'])
      .where('guide_id', '=', guideId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, r.kind]));
  }

  async insert(guideId: string, state: ChapterState): Promise<string> {
    return this.insertLast('col', guideId, toColumns(state));
  }

  async write(chapterId: string, state: ChapterState): Promise<void> {
    await this.writeColumns(chapterId, toColumns(state));
  }

  /** Replaces the members, in order (positions 1, 2, 3…). */
  async setMembers(chapterId: string, members: readonly MemberRef[]): Promise<void> {
    await this.db.deleteFrom('chapter_members').where('chapter_id', '=', chapterId).execute();
    for (let i = 0; i < members.length; i += CHUNK) {
      await this.db
        .insertInto('chapter_members')
        .values(
          members.slice(i, i + CHUNK).map((m, j) => ({
            chapter_id: chapterId,
            position: i + j + 1,
            spot_id: m.spotId ?? null,
            member_chapter_id: m.chapterId ?? null,
          })),
        )
        .execute();
    }
    await this.touch([chapterId]);
  }

  /** Adds spots after the chapter's last member, in the order given (the caller leaves out those already in it). */
  async appendSpots(chapterId: string, spotIds: readonly string[]): Promise<void> {
    if (spotIds.length === 0) return;
    const last = await this.db
      .selectFrom('chapter_members')
      .select((eb) => eb.fn.max('position').as('max'))
      .where('chapter_id', '=', chapterId)
      .executeTakeFirst();
    const after = Number(last?.max ?? 0);
    for (let i = 0; i < spotIds.length; i += CHUNK) {
      await this.db
        .insertInto('chapter_members')
        .values(
          spotIds.slice(i, i + CHUNK).map((spotId, j) => ({
            chapter_id: chapterId,
            position: after + i + j + 1,
            spot_id: spotId,
            member_chapter_id: null,
          })),
        )
        .execute();
    }
    await this.touch([chapterId]);
  }

  /** Whether any of the chapter's members is another chapter (a card). */
  async hasCards(chapterId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('chapter_members')
      .select('position')
      .where('chapter_id', '=', chapterId)
      .where('member_chapter_id', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes the chapter with its members, its cards in collections and its items in intros. */
  async delete(guideId: string, chapterId: string): Promise<void> {
    await this.dropMember('member_chapter_id', chapterId);
    await this.rewriteEach(guideId, 'intro', chapterId, (intro) => withoutChapter(intro as ChapterIntro, chapterId));
    await this.db.deleteFrom('chapters').where('id', '=', chapterId).execute();
  }

  /** A spot about to be deleted leaves every member list and page of its guide. */
  async removeSpot(guideId: string, spotId: string, spotKey: string): Promise<void> {
    await this.dropMember('spot_id', spotId);
    await this.rewriteEach(guideId, 'pages', spotKey, (pages) => withoutSpot(pages as Page[], spotKey));
  }

  /** A photo about to be deleted leaves every page of its guide. */
  async removePhoto(guideId: string, mediaId: string): Promise<void> {
    await this.rewriteEach(guideId, 'pages', mediaId, (pages) => withoutPhoto(pages as Page[], mediaId));
  }

  /** Takes a spot or a chapter out of every member list holding it; those chapters are touched. */
  private async dropMember(column: 'spot_id' | 'member_chapter_id', id: string): Promise<void> {
    const holders = await this.db
      .selectFrom('chapter_members')
      .select('chapter_id')
      .distinct()
      .where(column, '=', id)
      .execute();
    await this.db.deleteFrom('chapter_members').where(column, '=', id).execute();
    await this.touch(holders.map((h) => h.chapter_id));
  }

  /**
   * Rewrites a JSON column (intro or pages) of every chapter of the guide whose value names `named`
   * (an id or key the rewrite takes out); `rewrite` answers the very value it was given when nothing
   * in it changes, and only changed rows are written. The name appears as a JSON string wherever
   * the value holds it: a first filter in the store, so that removing many records (a restore, an
   * undo) does not parse every chapter once for each of them. Ids and keys hold no %, quote or
   * backslash; a _ matching any character only widens the filter.
   */
  private async rewriteEach(
    guideId: string,
    column: 'intro' | 'pages',
    named: string,
    rewrite: (value: unknown) => unknown,
  ) {
    const rows = await this.db
      .selectFrom('chapters')
      .select(['id', column])
      .where('guide_id', '=', guideId)
      .where(column, 'like', `%${JSON.stringify(named)}%`)
      .execute();
    for (const row of rows) {
      const value = JSON.parse((row as Record<string, string>)[column] as string) as unknown;
      const kept = rewrite(value);
      if (kept !== value) await this.touch([row.id], { [column]: JSON.stringify(kept) });
    }
  }

  /** Moves the chapters' updatedAt on, writing the JSON columns given. */
  private async touch(chapterIds: readonly string[], columns: { intro?: string; pages?: string } = {}): Promise<void> {
    if (chapterIds.length === 0) return;
    await this.db
      .updateTable('chapters')
      .set({ ...columns, updated_at: this.nextUpdatedAt() })
      .where('id', 'in', chapterIds)
      .execute();
  }
}

/** The guide's chapter count, as a subquery of a query over `guides` (see spotCountOfGuide). */
export function chapterCountOfGuide(eb: ExpressionBuilder<Database, 'guides'>) {
  return eb
    .selectFrom('chapters')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('chapters.guide_id', '=', 'guides.id');
}
