import type { Urls } from '../../core/operation.ts';
import type { PublicDownloads } from '../../core/resource.ts';
import type { ExportWriter } from './export-formats.ts';
import { exportWriters } from './export-writers.ts';

/** Where exports are downloaded from: `/downloads/<token>`, outside /api/v1, opened without a key. */
export const DOWNLOADS_PREFIX = '/downloads';

export const downloadUrl = (urls: Urls, token: string) => `${urls.publicUrl}${DOWNLOADS_PREFIX}/${token}`;

/** The name a browser saves a file under: the guide's slug, the copy, the format's extension. */
export const fileNameOf = (writer: ExportWriter, fileStem: string) => `${fileStem}.${writer.extension}`;

/**
 * The file a download address stands for, written when it is opened from the guide as it then
 * stands (the working copy may have moved on since `export_guide`; the live release has not unless
 * the guide was published again).
 */
export const exportDownloads: PublicDownloads = {
  prefix: DOWNLOADS_PREFIX,
  async open(token, { stores, services, clock }) {
    const link = await stores.downloadLinks.open(token);
    if (!link) return undefined;
    const writer = exportWriters[link.format];
    const guide = { id: link.guideId, creatorId: link.creatorId };
    return {
      madeBy: link.madeBy,
      creatorId: link.creatorId,
      async write() {
        const file = await writer.write({ guide, from: link.from, stores, services, now: clock.now() });
        return { contentType: writer.contentType, fileName: fileNameOf(writer, file.fileStem), body: file.body };
      },
    };
  },
};
