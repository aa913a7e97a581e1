import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import { ScopedStore } from '../../core/stores.ts';
import type { LinkChecksTable } from './link.tables.ts';
import type { LinkCheckResult, LinkStatus } from './link-checker.ts';

/** A link's last check as the report shows it. */
export interface LastCheck {
  status: LinkStatus;
  httpStatus: number | null;
  finalUrl: string | null;
  /** ms since the epoch, like every time of a record. */
  checkedAt: number;
  error: string | null;
}

/** What is stored of one URL of a guide. */
export interface LinkRecord {
  url: string;
  lastCheck: LastCheck | null;
  verifiedAt: number | null;
}

/** Rows written or deleted per statement: far below either dialect's limit of bound parameters. */
const DELETE_CHUNK = 500;

const keyOf = (url: string): string => createHash('sha256').update(url).digest('base64url');

function toRecord(row: Selectable<LinkChecksTable>): LinkRecord {
  const lastCheck: LastCheck | null =
    row.status === null || row.checked_at === null
      ? null
      : {
          status: row.status as LinkStatus,
          httpStatus: row.http_status === null ? null : Number(row.http_status),
          finalUrl: row.final_url,
          checkedAt: Number(row.checked_at),
          error: row.error,
        };
  return { url: row.url, lastCheck, verifiedAt: row.verified_at === null ? null : Number(row.verified_at) };
}

/** Link check results and verified marks. All SQL about them lives here. */
export class LinksStore extends ScopedStore {
  /** Every stored URL of the guide, by URL. */
  async forGuide(guideId: string): Promise<Map<string, LinkRecord>> {
    const rows = await this.db.selectFrom('link_checks').selectAll().where('guide_id', '=', guideId).execute();
    return new Map(rows.map((row) => [row.url, toRecord(row)]));
  }

  /** Stores each result as its URL's last check, in one statement; a verified mark stays as it was. */
  async saveChecks(guideId: string, results: readonly LinkCheckResult[]): Promise<void> {
    // One row per URL: a batch may repeat one, and a statement may not update a row twice.
    const rows = new Map(
      results.map((r) => [
        r.url,
        {
          guide_id: guideId,
          url_key: keyOf(r.url),
          url: r.url,
          status: r.status,
          http_status: r.httpStatus,
          final_url: r.finalUrl,
          error: r.error,
          checked_at: Date.parse(r.checkedAt),
          verified_at: null,
        },
      ]),
    );
    if (rows.size === 0) return;
    await this.db
      .insertInto('link_checks')
      .values([...rows.values()])
      .onConflict((oc) =>
        oc.columns(['guide_id', 'url_key']).doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          http_status: eb.ref('excluded.http_status'),
          final_url: eb.ref('excluded.final_url'),
          error: eb.ref('excluded.error'),
          checked_at: eb.ref('excluded.checked_at'),
        })),
      )
      .execute();
  }

  /** Marks URLs verified at this time, or clears their marks (null); a few statements per 500 URLs. */
  async setVerified(guideId: string, urls: readonly string[], verifiedAt: number | null): Promise<void> {
    for (let i = 0; i < urls.length; i += DELETE_CHUNK) {
      const chunk = [...new Set(urls.slice(i, i + DELETE_CHUNK))];
      if (verifiedAt === null) await this.unmark(guideId, chunk.map(keyOf));
      else await this.mark(guideId, chunk, verifiedAt);
    }
  }

  private async mark(guideId: string, urls: readonly string[], verifiedAt: number): Promise<void> {
    await this.db
      .insertInto('link_checks')
      .values(
        urls.map((url) => ({
          guide_id: guideId,
          url_key: keyOf(url),
          url,
          status: null,
          http_status: null,
          final_url: null,
          error: null,
          checked_at: null,
          verified_at: verifiedAt,
        })),
      )
      .onConflict((oc) => oc.columns(['guide_id', 'url_key']).doUpdateSet({ verified_at: verifiedAt }))
      .execute();
  }

  private async unmark(guideId: string, keys: readonly string[]): Promise<void> {
    // A row left with neither a check nor a mark goes; a checked one keeps its check.
    await this.db
      .deleteFrom('link_checks')
      .where('guide_id', '=', guideId)
      .where('url_key', 'in', keys)
      .where('status', 'is', null)
      .execute();
    await this.db
      .updateTable('link_checks')
      .set({ verified_at: null })
      .where('guide_id', '=', guideId)
      .where('url_key', 'in', keys)
      .execute();
  }

  /** Drops what is stored of URLs the guide no longer holds. */
  async keepOnly(guideId: string, held: ReadonlySet<string>): Promise<void> {
    const rows = await this.db
      .selectFrom('link_checks')
      .select(['url_key', 'url'])
      .where('guide_id', '=', guideId)
      .execute();
    const gone = rows.filter((row) => !held.has(row.url)).map((row) => row.url_key);
    for (let i = 0; i < gone.length; i += DELETE_CHUNK) {
      await this.db
        .deleteFrom('link_checks')
        .where('guide_id', '=', guideId)
        .where('url_key', 'in', gone.slice(i, i + DELETE_CHUNK))
        .execute();
    }
  }
}
