import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.ts';
import { ApiError } from '../core/errors.ts';
import type { StoreScope } from '../core/stores.ts';
import type { Dialect } from '../db/store-interface.ts';
import type { Database } from '../db/tables.ts';
import { createStores } from '../resources/index.ts';
import { publishRelease } from '../resources/publishing/index.ts';
import { UsageError } from './commands.ts';
import { StudioStore } from './studio.store.ts';

export interface GoLiveResult {
  productId: string;
  status: 'published';
  publishedAt: number | null;
  release: { number: number; publishedAt: number; published: boolean };
}

/**
 * Puts a guide on sale: the same gates as publish_changes (bar being live), refused with
 * not_publishable and its blocking list, and a release written in the same transaction, so a live
 * guide always has one. The status update locks the guide's row, so a racing publish queues.
 * Used by the admin command line and the studio's guides page alike.
 */
export async function putOnSale(
  store: { db: Kysely<Database>; dialect: Dialect },
  clock: Clock,
  guideId: string,
): Promise<GoLiveResult | undefined> {
  return store.db.transaction().execute(async (trx) => {
    const scope: StoreScope = { db: trx, clock, dialect: store.dialect };
    const studio = new StudioStore(scope);
    const moved = await studio.setStatus(guideId, 'published');
    if (!moved) return undefined;
    const creatorId = await studio.creatorOf(guideId);
    const result = await publishRelease(createStores()(scope), guideId, creatorId, clock.today(), {
      keyId: null,
      needsLive: false,
    });
    return {
      productId: moved.productId,
      status: 'published' as const,
      publishedAt: moved.publishedAt,
      release: { ...result.release, published: result.published },
    };
  });
}

/** putOnSale for the command line: a refusal is a usage error listing the blocking gates. */
export async function goLive(
  store: { db: Kysely<Database>; dialect: Dialect },
  clock: Clock,
  guideId: string,
): Promise<GoLiveResult | undefined> {
  try {
    return await putOnSale(store, clock, guideId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_publishable') {
      throw new UsageError(`the guide cannot go on sale: ${JSON.stringify(err.details)}`);
    }
    throw err;
  }
}
