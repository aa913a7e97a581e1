import type { z } from 'zod';
import { refuse } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';
import type { SalesPageContent, salesPageFields } from './sales-page.schema.ts';

type Fields = { [K in keyof typeof salesPageFields]?: z.output<(typeof salesPageFields)[K]> };

/** Text the creator left empty (or only spaces) is stored as absent. */
function filled(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}

/** The index of the first earlier occurrence of `value`, if `list` holds it before `i`. */
function repeatOf<T>(list: readonly T[], i: number, same: (a: T) => boolean): number | undefined {
  const first = list.findIndex(same);
  return first < i ? first : undefined;
}

/** What a delete_media answer warns when it took its photo out of the draft (`places`: the fields). */
export function takenOutOfDraft(places: readonly string[]): string {
  return (
    `The sales page draft no longer shows this photo (it was ${places.join(' and ')}); buyers still see it ` +
    'until the next publish. Read the draft with get_sales_page before saving it again.'
  );
}

/**
 * The photos of the draft as stored that are no longer photos of this guide: a draft saved before
 * deletes took their photo out of it may still name one. A save that sends the draft back as read
 * leaves those out with a warning instead of refusing them.
 */
async function goneFromDraft(ctx: OperationContext, guideId: string, stored: SalesPageContent | null) {
  const named = stored ? [stored.heroMediaId, ...stored.gallery.map((p) => p.mediaId)] : [];
  const ids = named.filter((id): id is string => id !== null);
  const present = await ctx.stores.media.photoIdsAmong(guideId, ids);
  return new Set(ids.filter((id) => !present.has(id)));
}

/**
 * The draft as stored: every photo a photo of this guide, every sample spot a spot of it, each
 * once; empty texts left out. Things a buyer would miss are warned about, never refused: a photo
 * without a credit (the page shows none until the creator gives one; readiness blocks a publish
 * on it) and an archived sample spot (buyers do not see it). A photo the stored draft names that
 * was deleted since is left out with a warning (`stored`: the draft as it is now).
 */
export async function normaliseSalesPage(
  ctx: OperationContext,
  guideId: string,
  input: Fields,
  stored: SalesPageContent | null,
): Promise<SalesPageContent> {
  const sampleSpotKeys = input.sampleSpotKeys ?? [];
  const gone = await goneFromDraft(ctx, guideId, stored);
  const leftOut = (path: string, mediaId: string) => {
    if (!gone.has(mediaId)) return false;
    ctx.warn(`${path}: this photo was deleted since the draft named it, so it is left out.`);
    return true;
  };
  const heroSent = input.heroMediaId ?? null;
  const heroMediaId = heroSent !== null && leftOut('heroMediaId', heroSent) ? null : heroSent;
  if (heroMediaId !== null) await requireCreditedPhoto(ctx, guideId, 'heroMediaId', heroMediaId);

  const sent = input.gallery ?? [];
  const gallery: SalesPageContent['gallery'] = [];
  for (const [i, photo] of sent.entries()) {
    const path = `gallery[${i}].mediaId`;
    if (leftOut(path, photo.mediaId)) continue;
    const seen = repeatOf(sent, i, (p) => p.mediaId === photo.mediaId);
    if (seen !== undefined) throw refuse(path, `this photo is already gallery[${seen}].`);
    await requireCreditedPhoto(ctx, guideId, path, photo.mediaId);
    gallery.push(filled(photo.caption) === null ? { mediaId: photo.mediaId } : photo);
  }

  const spots = await ctx.stores.spots.findByKeys(guideId, [...new Set(sampleSpotKeys)]);
  for (const [i, key] of sampleSpotKeys.entries()) {
    const path = `sampleSpotKeys[${i}]`;
    const seen = repeatOf(sampleSpotKeys, i, (k) => k === key);
    if (seen !== undefined) throw refuse(path, `"${key}" is already sampleSpotKeys[${seen}].`);
    const spot = spots.get(key);
    if (!spot) throw refuse(path, `no spot of this guide has the key "${key}".`);
    if (spot.archived) ctx.warn(`${path}: the spot "${key}" is archived; buyers will not see it on the sales page.`);
  }

  return {
    heroMediaId,
    headline: filled(input.headline),
    promise: filled(input.promise),
    sections: (input.sections ?? []).map((s) => ({
      heading: s.heading,
      paragraphs: s.paragraphs.filter((p) => p.trim() !== ''),
    })),
    highlights: input.highlights ?? [],
    included: input.included ?? [],
    sampleSpotKeys,
    gallery,
    faq: input.faq ?? [],
    searchTitle: filled(input.searchTitle),
    searchDescription: filled(input.searchDescription),
  };
}

/** A photo of this guide, or invalid_request naming `path`; one without a credit is warned about. */
async function requireCreditedPhoto(ctx: OperationContext, guideId: string, path: string, mediaId: string) {
  const photo = await ctx.stores.media.photoOf(guideId, mediaId);
  if (!photo) throw refuse(path, 'no photo of this guide has this mediaId.');
  if (photo.meta.credit === null || photo.meta.credit.trim() === '') {
    ctx.warn(
      `${path}: this photo has no credit, so the page cannot show "Photo: <name>" and publishing is blocked; ` +
        'ask the creator who took it and set it with update_media (never invent one).',
    );
  }
}
