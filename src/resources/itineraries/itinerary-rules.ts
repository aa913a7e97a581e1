import type { z } from 'zod';
import { refuse } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';
import { clearable } from '../../shared/text.ts';
import { checkDays, type DayRules, hasOpenableStop } from './day.input.ts';
import type { itineraryFieldsSchema, Season } from './itinerary.schema.ts';
import type { ItineraryState } from './itinerary.store.ts';

export type ItineraryFields = Partial<z.output<typeof itineraryFieldsSchema>> & { archived?: boolean };

export function emptyItinerary(name: string): ItineraryState {
  return {
    name,
    description: null,
    body: null,
    coverMediaId: null,
    travelMode: null,
    season: null,
    startsAt: null,
    endsAt: null,
    days: [],
    archived: false,
  };
}

/** Months once each, in calendar order; null when nothing is left (null or {} clears). */
function normalSeason(season: { months?: number[] | undefined; note?: string | undefined } | null): Season | null {
  if (season === null) return null;
  const months = [...new Set(season.months ?? [])].sort((a, b) => a - b);
  const note = season.note?.trim() ? season.note : undefined;
  const kept: Season = {};
  if (months.length > 0) kept.months = months;
  if (note !== undefined) kept.note = note;
  return months.length > 0 || note !== undefined ? kept : null;
}

/** The itinerary after the fields sent (PATCH rules: only sent fields change, "" clears text). */
export async function applyItineraryFields(
  ctx: OperationContext,
  guideId: string,
  current: ItineraryState,
  fields: ItineraryFields,
): Promise<ItineraryState> {
  const next: ItineraryState = { ...current };
  if (fields.name !== undefined) next.name = fields.name;
  if (fields.description !== undefined) next.description = clearable(fields.description);
  if (fields.body !== undefined) next.body = clearable(fields.body);
  if (fields.startsAt !== undefined) next.startsAt = clearable(fields.startsAt);
  if (fields.endsAt !== undefined) next.endsAt = clearable(fields.endsAt);
  if (fields.travelMode !== undefined) next.travelMode = fields.travelMode;
  if (fields.season !== undefined) next.season = normalSeason(fields.season);
  if (fields.archived !== undefined) next.archived = fields.archived;
  if (fields.coverMediaId !== undefined && fields.coverMediaId !== null) {
    if (!(await ctx.stores.media.photoOf(guideId, fields.coverMediaId))) {
      throw refuse('coverMediaId', 'no photo of this guide has this id; list them with list_media.');
    }
  }
  if (fields.coverMediaId !== undefined) next.coverMediaId = fields.coverMediaId;
  return next;
}

/** What the days of one guide are checked against. */
export function dayRules(ctx: OperationContext, guideId: string): DayRules {
  const { spots, routes, itineraries } = ctx.stores;
  return {
    spots: async (keys) => {
      const found = await spots.findByKeys(guideId, [...new Set(keys)]);
      return new Map([...found].map(([key, spot]) => [key, { archived: spot.archived }]));
    },
    places: (ids) => itineraries.placeFacts(guideId, ids),
    routes: async (ids) => new Set((await routes.findInGuide(guideId, ids)).keys()),
    warn: ctx.warn,
  };
}

/**
 * The days checked and stored as they will be, with the warnings an assistant can act on; one
 * more when the itinerary is not archived but buyers could open none of its stops.
 */
export async function checkedDays(ctx: OperationContext, state: ItineraryState, guideId: string) {
  const rules = dayRules(ctx, guideId);
  const days = await checkDays(state.days, rules);
  if (!state.archived && !(await hasOpenableStop(days, rules))) {
    ctx.warn(
      'days: no stop buyers can open (a spot that is not archived, a place, a route or hike), so buyers will not see this itinerary; add one with set_itinerary_days.',
    );
  }
  return days;
}
