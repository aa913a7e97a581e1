import { z } from 'zod';
import { notFound, refuse } from '../../core/errors.ts';
import type { OperationContext, PrepareContext } from '../../core/operation.ts';
import { spotIdSchema } from './media.schema.ts';

/** At most this many photos in one batch, so at most this many spots. */
export const MAX_BATCH_FILES = 10;

export const spotIdsSchema = z
  .array(z.string().max(100).nullable())
  .max(MAX_BATCH_FILES)
  .describe(
    'One entry per file, in the order of the files: the spotId (list_spots) of the spot that photo shows, or null ' +
      '(or "") for a photo of the whole guide. One form field holding a JSON list (["sp_…",null]), or the field ' +
      'repeated once per file. Instead of spotId',
  );

export const everyPhotoSpotSchema = spotIdSchema
  .optional()
  .describe('Attach every photo to this spot of the guide (spotIds gives each file its own)');

/** Each photo's spot in file order (null: none), and the input field that named it, for a refusal. */
export interface UploadSpots {
  spots: (string | null)[];
  fieldOf(index: number): string;
}

/** Where each of `files` photos goes: spotIds when sent, one per file; else spotId (or none) for all. */
export function spotsOfUpload(
  input: { spotId?: string; spotIds?: readonly (string | null)[] },
  files: number,
): UploadSpots {
  if (input.spotIds === undefined) {
    return { spots: Array<string | null>(files).fill(input.spotId ?? null), fieldOf: () => 'spotId' };
  }
  if (input.spotId !== undefined) {
    throw refuse('spotIds', 'send spotId (every photo on one spot) or spotIds (one per file), not both.');
  }
  if (input.spotIds.length !== files) {
    throw refuse(
      'spotIds',
      `${input.spotIds.length} ${input.spotIds.length === 1 ? 'entry' : 'entries'} for ${files} ` +
        `${files === 1 ? 'file' : 'files'}: give exactly one per file part, in the order of the files ` +
        '(null for a photo of the whole guide), as one JSON list (["sp_…",null]) or the field repeated per file. ' +
        'Nothing was stored.',
    );
  }
  return { spots: input.spotIds.map((id) => (id === '' ? null : id)), fieldOf: (i) => `spotIds[${i}]` };
}

/**
 * Before any photo is decoded, and again when the rows are written: the guide must be the caller's
 * and every spot one of its spots. A spot key sent for an id is refused with the id to send.
 */
export async function checkUploadTarget(
  ctx: PrepareContext | OperationContext,
  productId: string,
  target: UploadSpots,
): Promise<void> {
  const { media } = ctx.stores;
  if (!(await media.guideOwned(ctx.principal.creatorId, productId))) throw notFound('guide', productId);
  const checked = new Set<string>();
  for (const [i, spotId] of target.spots.entries()) {
    if (spotId === null || checked.has(spotId)) continue;
    if (!(await media.spotOf(productId, spotId))) {
      const byKey = await media.spotIdOfKey(productId, spotId);
      throw refuse(
        target.fieldOf(i),
        byKey === undefined
          ? 'no spot with this id in the guide; take spotId from list_spots.'
          : `"${spotId}" is that spot's spotKey; send its spotId "${byKey}" instead.`,
      );
    }
    checked.add(spotId);
  }
}
