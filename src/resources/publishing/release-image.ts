import type { Stores } from '../../core/stores.ts';
import { keysOf, mediaKeysInJson } from '../media/index.ts';
import { packImage, unpackImage, type WorkingImage } from './image-format.ts';
import type { PackedImage } from './release.store.ts';

/**
 * The guide's working copy as a publish keeps it beside the release, read in the publish's
 * transaction: every tracked table's rows, and the photo files they name (each photo's renditions,
 * the guide's thumbnail), so those stay while the release does, shown to buyers or not.
 */
export async function captureImage(stores: Stores, guideId: string): Promise<PackedImage> {
  const copy = stores.workingCopy;
  const rows = await copy.keyedRows(await copy.tables(), guideId);
  const { packed, text } = await packImage(rows);
  const photos = [...(rows.get('media')?.values() ?? [])].map((row) => JSON.parse(row) as { files: string });
  const fileKeys = new Set([...mediaKeysInJson(text), ...photos.flatMap((p) => keysOf(JSON.parse(p.files)))]);
  return { packed, fileKeys: [...fileKeys] };
}

/** The working image a release kept, or undefined for one published before images were kept. */
export async function imageOf(stores: Stores, releaseId: string): Promise<WorkingImage | undefined> {
  const packed = await stores.releases.packedImage(releaseId);
  return packed === undefined ? undefined : unpackImage(packed);
}
