import type { Stores } from '../../core/stores.ts';
import { keysOf, mediaKeysInJson } from '../media/index.ts';
import { packImage, rowsOfLines, unpackImage, type WorkingImage } from './image-format.ts';
import type { PackedImage } from './release.store.ts';

/**
 * The guide's working copy as a publish keeps it beside the release, read in the publish's
 * transaction: every tracked table's rows, and the photo files they name (each photo's renditions,
 * the guide's thumbnail), so those stay while the release does, shown to buyers or not.
 */
export async function captureImage(stores: Stores, guideId: string): Promise<PackedImage> {
  const copy = stores.workingCopy;
  const lines = await copy.imageLines(await copy.tables(), guideId);
  const { packed, bytes } = await packImage(lines);
  // The files' keys are ASCII, which Latin-1 reads as it is: no UTF-8 decoding of the whole image.
  const named = mediaKeysInJson(bytes.toString('latin1'));
  const photos = rowsOfLines(lines.get('media') ?? new Uint8Array()) as Array<{ files: string }>;
  const fileKeys = new Set([...named, ...photos.flatMap((p) => keysOf(JSON.parse(p.files)))]);
  return { packed, fileKeys: [...fileKeys] };
}

/** The working image a release kept, or undefined for one published before images were kept. */
export async function imageOf(stores: Stores, releaseId: string): Promise<WorkingImage | undefined> {
  const packed = await stores.releases.packedImage(releaseId);
  return packed === undefined ? undefined : unpackImage(packed);
}
