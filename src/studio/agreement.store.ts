import { ScopedStore } from '../core/stores.ts';

export interface AgreementVersion {
  version: number;
  title: string;
  body: string;
  publishedAt: number;
}

export interface Acceptance {
  version: number;
  acceptedAt: number;
}

/**
 * The creator agreement's versions and acceptances. `creators.agreement_accepted` stays the one
 * flag the API's gates read (set_guide_price, publish_changes): accepting the current version sets
 * it, publishing a new version clears it for everyone, so the gates cost no extra read.
 */
export class AgreementStore extends ScopedStore {
  async current(): Promise<AgreementVersion> {
    const row = await this.db
      .selectFrom('agreement_versions')
      .selectAll()
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    return { version: row.version, title: row.title, body: row.body, publishedAt: Number(row.published_at) };
  }

  /** The newest version the creator accepted, if any. */
  async lastAccepted(creatorId: string): Promise<Acceptance | undefined> {
    const row = await this.db
      .selectFrom('agreement_acceptances')
      .select(['version', 'accepted_at'])
      .where('creator_id', '=', creatorId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { version: row.version, acceptedAt: Number(row.accepted_at) };
  }

  /**
   * Records that the creator accepted `version` (the one the page showed). Refused (false) when a
   * newer version was published since: they must read that one. Run in a transaction: the
   * creator's row is locked first (PostgreSQL), so a publish racing with it either clears the flag
   * after this sets it, or this sees the new version and refuses.
   */
  async accept(creatorId: string, version: number): Promise<boolean> {
    if (this.dialect === 'postgres') {
      await this.db.selectFrom('creators').select('id').where('id', '=', creatorId).forUpdate().execute();
    }
    const current = await this.current();
    if (current.version !== version) return false;
    const now = this.clock.now();
    await this.db
      .insertInto('agreement_acceptances')
      .values({ creator_id: creatorId, version, accepted_at: now })
      .onConflict((oc) => oc.columns(['creator_id', 'version']).doNothing())
      .execute();
    await this.db
      .updateTable('creators')
      .set({ agreement_accepted: 1, updated_at: now })
      .where('id', '=', creatorId)
      .execute();
    return true;
  }

  /**
   * Records that the creator accepted the version current now, outside the studio's form: an
   * acceptance the operator holds (`admin agreement accept`), the demo creator's. Answers it.
   */
  async acceptCurrent(creatorId: string): Promise<number> {
    const { version } = await this.current();
    await this.accept(creatorId, version);
    return version;
  }

  /** A new current version: every creator must accept it before changing a price or publishing again. */
  async publish(title: string, body: string): Promise<AgreementVersion> {
    const { version } = await this.current();
    const next = { version: version + 1, title, body, publishedAt: this.clock.now() };
    await this.db
      .insertInto('agreement_versions')
      .values({ version: next.version, title, body, published_at: next.publishedAt })
      .execute();
    await this.db.updateTable('creators').set({ agreement_accepted: 0 }).where('agreement_accepted', '=', 1).execute();
    return next;
  }
}
