import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../../core/errors.ts';
import type { Stores } from '../../core/stores.ts';
import { CustomValuesWriter } from '../properties/index.ts';
import { applySpotFields, emptySpot, type SpotRules } from './spot.input.ts';
import type { SpotFields, SpotRef } from './spot.schema.ts';
import type { OwnedSpot, SpotState } from './spot.store.ts';

/** The rules a spot write checks for the spot's guide, each read at most once per call, when needed. */
export function spotRules(ctx: { stores: Stores }, guideId: string): SpotRules {
  let writer: Promise<CustomValuesWriter> | undefined;
  return {
    customValues: () => {
      writer ??= ctx.stores.properties.listForGuide(guideId).then((properties) => new CustomValuesWriter(properties));
      return writer;
    },
    areaExists: (areaId) => ctx.stores.areas.exists(guideId, areaId),
  };
}

/** One spot of a batch: its key, and the fields sent for it (name required to create). */
export type SpotWriteItem = Partial<SpotFields> & { spotKey: string };

/** What writing one item would do to the guide as it stands. */
export type SpotWritePlan =
  | { action: 'create'; spotKey: string; state: SpotState }
  | { action: 'update'; spotKey: string; state: SpotState; current: OwnedSpot }
  | { action: 'unchanged'; spotKey: string; current: OwnedSpot };

/**
 * What a batch would do, item by item, matched on spotKey against the guide's spots, with nothing
 * written: a key the guide has is updated with the fields sent, a new key creates a spot, and one
 * already as sent is unchanged (a batch sent again writes nothing). Keys must be distinct. A refused
 * field throws, named at `pathOf(i)` (upsert_spots' `spots[3]`).
 */
export async function planSpotWrites(
  ctx: { stores: Stores },
  guideId: string,
  items: readonly SpotWriteItem[],
  pathOf: (index: number) => string,
): Promise<SpotWritePlan[]> {
  const existing = await ctx.stores.spots.findByKeys(
    guideId,
    items.map((item) => item.spotKey),
  );
  const rules = spotRules(ctx, guideId);
  const plans: SpotWritePlan[] = [];
  for (const [i, { spotKey, ...fields }] of items.entries()) {
    const current = existing.get(spotKey);
    if (current) {
      const state = await applySpotFields(current, fields, rules, pathOf(i));
      plans.push(
        isDeepStrictEqual(state, current)
          ? { action: 'unchanged', spotKey, current }
          : { action: 'update', spotKey, state, current },
      );
      continue;
    }
    if (fields.name === undefined) {
      throw new ApiError(
        'invalid_argument',
        `${pathOf(i)}.name: is required to create the spot "${spotKey}" (no spot has that key yet)`,
      );
    }
    plans.push({
      action: 'create',
      spotKey,
      state: await applySpotFields(emptySpot(spotKey, fields.name), fields, rules, pathOf(i)),
    });
  }
  return plans;
}

/** Writes a plan (in the caller's transaction): new spots at the end of the guide, in order. */
export async function applySpotWrites(
  stores: Stores,
  guideId: string,
  plans: readonly SpotWritePlan[],
): Promise<SpotRef[]> {
  const { spots } = stores;
  let order = plans.some((p) => p.action === 'create') ? await spots.order.next(guideId) : 0;
  const refs: SpotRef[] = [];
  for (const plan of plans) {
    if (plan.action === 'create') {
      refs.push({ spotId: await spots.insert(guideId, plan.state, order), spotKey: plan.spotKey });
      order += 1;
      continue;
    }
    if (plan.action === 'update') await spots.replace(plan.current.spotId, plan.state);
    refs.push({ spotId: plan.current.spotId, spotKey: plan.spotKey });
  }
  return refs;
}
