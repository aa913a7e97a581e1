import { notFound } from '../../core/errors.ts';
import { newId } from '../../core/new-id.ts';
import { ScopedStore } from '../../core/stores.ts';
import { announceRevocation } from '../../db/coordination.ts';
import type { CreatorsTable } from '../../db/tables.ts';
import { candidateStem, firstFree, slugify } from '../../shared/text.ts';
import type { SocialLink } from './profile.schema.ts';

export interface Creator {
  creatorId: string;
  slug: string;
  email: string;
  displayName: string;
  realName: string | null;
  bio: string | null;
  avatarUrl: string | null;
  socials: SocialLink[];
  active: boolean;
  agreementAccepted: boolean;
  createdAt: number;
  updatedAt: number;
}

/** Creator accounts: the profile the API edits and the flags the studio sets. */
export class CreatorsStore extends ScopedStore {
  async find(creatorId: string): Promise<Creator | undefined> {
    const row = await this.db.selectFrom('creators').selectAll().where('id', '=', creatorId).executeTakeFirst();
    return row && toCreator(row);
  }

  async require(creatorId: string): Promise<Creator> {
    const creator = await this.find(creatorId);
    if (!creator) throw notFound('creator', creatorId);
    return creator;
  }

  async findByEmail(email: string): Promise<Creator | undefined> {
    const row = await this.db
      .selectFrom('creators')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row && toCreator(row);
  }

  async create(input: { email: string; displayName: string; agreementAccepted: boolean }): Promise<Creator> {
    const id = newId('cr');
    const now = this.clock.now();
    const slug = await this.freeSlug(slugify(input.displayName, 'creator'));
    await this.db
      .insertInto('creators')
      .values({
        id,
        email: input.email.toLowerCase(),
        slug,
        display_name: input.displayName,
        real_name: null,
        bio: null,
        avatar_url: null,
        socials: '[]',
        active: 1,
        agreement_accepted: input.agreementAccepted ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return this.require(id);
  }

  private async freeSlug(base: string): Promise<string> {
    const rows = await this.db
      .selectFrom('creators')
      .select('slug')
      .where('slug', 'like', `${candidateStem(base)}%`)
      .execute();
    return firstFree(base, new Set(rows.map((r) => r.slug)));
  }

  async update(
    creatorId: string,
    patch: {
      displayName?: string;
      realName?: string | null;
      socials?: SocialLink[];
      active?: boolean;
      agreementAccepted?: boolean;
    },
  ): Promise<boolean> {
    const set: Partial<CreatorsTable> = { updated_at: this.clock.now() };
    if (patch.displayName !== undefined) set.display_name = patch.displayName;
    if (patch.realName !== undefined) set.real_name = patch.realName;
    if (patch.socials !== undefined) set.socials = JSON.stringify(patch.socials);
    if (patch.active !== undefined) set.active = patch.active ? 1 : 0;
    if (patch.agreementAccepted !== undefined) set.agreement_accepted = patch.agreementAccepted ? 1 : 0;
    const result = await this.db.updateTable('creators').set(set).where('id', '=', creatorId).executeTakeFirst();
    // A deactivated account's keys stop working on every instance within a second.
    if (patch.active === false) await announceRevocation(this.db);
    return Number(result.numUpdatedRows) > 0;
  }
}

function toCreator(row: CreatorsTable): Creator {
  return {
    creatorId: row.id,
    slug: row.slug,
    email: row.email,
    displayName: row.display_name,
    realName: row.real_name,
    bio: row.bio,
    avatarUrl: row.avatar_url,
    socials: JSON.parse(row.socials) as SocialLink[],
    active: row.active === 1,
    agreementAccepted: row.agreement_accepted === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
