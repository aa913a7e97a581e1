import type { GuidePartName } from '../../src/core/guide-contents.ts';
import { createStores } from '../../src/resources/index.ts';
import type { Harness } from './harness.ts';

const PARTS = [
  'guide',
  'spots',
  'areas',
  'places',
  'chapters',
  'routes',
  'itineraries',
  'photos',
  'properties',
  'salesPage',
] as const;

/**
 * The whole working copy of one of Alice's guides through the one whole-guide reader, less what
 * every write stamps (the guide's revision and times): what undo and restore tests compare.
 */
export async function wholeGuide(h: Harness, productId: string, which: readonly GuidePartName[] = PARTS): Promise<any> {
  const stores = createStores()({ db: h.store.db, clock: h.clock, dialect: h.store.dialect });
  const parts = await stores.guideContents.read({ id: productId, creatorId: h.alice.creatorId }, which);
  const {
    updatedAt: _u,
    revision: _r,
    lastApiWriteAt: _l,
    ...guide
  } = parts.guide as unknown as Record<string, unknown>;
  return JSON.parse(JSON.stringify({ ...parts, guide }));
}
