import { refuse } from '../../core/errors.ts';
import type { OperationContext } from '../../core/operation.ts';

/*
 * Every look-up of a photo a chapter names goes through here. Photos (the media resource) are not
 * merged yet, so nothing can be found: each id is refused with the answer a missing one will get.
 * When media lands: requireOwnImage asks ctx.stores.media.blobOf(ctx.principal.creatorId, storageId)
 * and requireGuidePhoto asks for a media row of guideId with that mediaId; the sentences stay.
 */

/** An image this creator uploaded with target=blob, or invalid_request naming `path`. */
export async function requireOwnImage(_ctx: OperationContext, path: string, _storageId: string): Promise<void> {
  throw refuse(path, 'no image uploaded with target=blob by you has this storageId');
}

/** A photo (media row) of this guide, or invalid_request naming `path`. */
export async function requireGuidePhoto(
  _ctx: OperationContext,
  _guideId: string,
  path: string,
  _mediaId: string,
): Promise<void> {
  throw refuse(path, 'no photo of this guide has this mediaId');
}

/** Where buyers load a cover from; null until blob storage answers URLs for chapters. */
export function coverUrlOf(_storageId: string | null): string | null {
  return null;
}
