import type { KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import { credentialWorks } from '../../core/credential-works.ts';
import { KeptKey, newSealKey, openSealed, sealText } from '../../core/sealed-text.ts';
import { ScopedStore, type StoreScope } from '../../core/stores.ts';
import { keptSecret } from '../../db/kept-secrets.ts';
import type { Database } from '../../db/tables.ts';
import { type ExportFormat, type ExportFrom, exportFormats, exportSources } from './export-formats.ts';

/** How long a download address works: long enough to open from a chat, too short to be passed around. */
export const DOWNLOAD_MS = 15 * 60_000;

/** What a download address stands for: one guide's file, for its creator, until it expires. */
export interface DownloadLink {
  guideId: string;
  creatorId: string;
  /** The API key's id or the assistant's grant id that asked: the address works while it does. */
  madeBy: string;
  format: ExportFormat;
  from: ExportFrom;
  expiresAt: number;
}

/** Far above any token this service writes (about 200 characters): longer ones are not even decoded. */
const TOKEN_CHARS_MAX = 600;

/**
 * The app's key for download tokens, read once from the store (shared by every instance, so an
 * address one instance made downloads from another); a failed read is tried again by the next use.
 */
export class DownloadKey {
  readonly #key = new KeptKey();

  get(db: Kysely<Database>): Promise<KeyObject> {
    return this.#key.get(async () => Buffer.from(await keptSecret(db, 'download-tokens', newSealKey), 'base64url'));
  }
}

function linkOf(fields: unknown): DownloadLink | undefined {
  if (!Array.isArray(fields) || fields.length !== 6) return undefined;
  const [guideId, creatorId, madeBy, format, from, expiresAt] = fields as unknown[];
  const strings = [guideId, creatorId, madeBy].every((s) => typeof s === 'string');
  if (!strings || typeof expiresAt !== 'number') return undefined;
  if (!exportFormats.includes(format as ExportFormat) || !exportSources.includes(from as ExportFrom)) return undefined;
  return {
    guideId: guideId as string,
    creatorId: creatorId as string,
    madeBy: madeBy as string,
    format: format as ExportFormat,
    from: from as ExportFrom,
    expiresAt,
  };
}

/**
 * Download addresses are sealed, not stored (AES-256-GCM under a key kept in the store): the token
 * holds the guide, its creator, the credential that asked, the format and when it expires, and
 * nobody can read, change or make one. Nothing is written per export, so `export_guide` stays a
 * read; what a token says is checked again at every download against the store (the guide still
 * its creator's, the creator active, the credential working).
 */
export class DownloadLinksStore extends ScopedStore {
  private readonly key: DownloadKey;

  constructor(scope: StoreScope, key: DownloadKey) {
    super(scope);
    this.key = key;
  }

  /** A new address's token and when it expires. */
  async make(link: Omit<DownloadLink, 'expiresAt'>): Promise<{ token: string; expiresAt: number }> {
    const expiresAt = this.clock.now() + DOWNLOAD_MS;
    const plain = JSON.stringify([link.guideId, link.creatorId, link.madeBy, link.format, link.from, expiresAt]);
    return { token: sealText(await this.key.get(this.db), plain), expiresAt };
  }

  /** What a token stands for while it works; undefined for a token made up, changed, expired or no longer good. */
  async open(token: string): Promise<DownloadLink | undefined> {
    const link = await this.unseal(token);
    const now = this.clock.now();
    if (!link || link.expiresAt <= now) return undefined;
    const row = await this.db
      .selectFrom('guides')
      .innerJoin('creators', 'creators.id', 'guides.creator_id')
      .select('guides.id')
      .where('guides.id', '=', link.guideId)
      .where('guides.creator_id', '=', link.creatorId)
      .where('creators.active', '=', 1)
      .where((eb) => credentialWorks(eb.val(link.madeBy), now))
      .executeTakeFirst();
    return row ? link : undefined;
  }

  private async unseal(token: string): Promise<DownloadLink | undefined> {
    if (token.length > TOKEN_CHARS_MAX || !/^[\w-]+$/.test(token)) return undefined;
    const plain = openSealed(await this.key.get(this.db), token);
    if (plain === undefined) return undefined;
    try {
      return linkOf(JSON.parse(plain));
    } catch {
      return undefined;
    }
  }
}
