import type { OperationExample } from '../../core/operation.ts';

const vintgarPhoto = {
  mediaId: 'med__2S9etS5v5_RUnBo',
  productId: 'gd_kKif6mbydYyv_ZEZ',
  spotId: 'sp_T5j-x6AA2bbpCfKB',
  spotKey: 'vintgar-gorge',
  order: 1,
  width: 1600,
  height: 1067,
  bytes: 27411,
  urls: {
    original: 'http://127.0.0.1:8080/media/blob_6CdRYLMF-PkeBHJq.jpg',
    large: 'http://127.0.0.1:8080/media/blob_DwMO3ilg1KUUxhFi.webp',
    medium: 'http://127.0.0.1:8080/media/blob_Pq1djvSGVIlfxlP-.webp',
    small: 'http://127.0.0.1:8080/media/blob_ElZnrQo4SHIBvVhh.webp',
  },
  alt: 'Wooden boardwalk above the green Radovna river',
  caption: null,
  capturedOn: '2026-09-14',
  credit: 'Maja Novak',
  creditUrl: null,
  focalX: null,
  focalY: null,
  licence: null,
  locationVerifiedBy: null,
  reviewNotes: null,
  shows: null,
  sourcePageUrl: null,
  takenAt: null,
  createdAt: 1795428000000,
  updatedAt: 1795428000000,
};
const batchFirst = {
  ...vintgarPhoto,
  mediaId: 'med_uUhfVjF5dm4CyJhz',
  order: 2,
  urls: {
    original: 'http://127.0.0.1:8080/media/blob_ImKiRvSnt_mYllDR.jpg',
    large: 'http://127.0.0.1:8080/media/blob_77ugN0cCkW0Y-9_z.webp',
    medium: 'http://127.0.0.1:8080/media/blob_yS4ufeOWoC0Z7EN3.webp',
    small: 'http://127.0.0.1:8080/media/blob_e0DIYHAp_uD8pQQ5.webp',
  },
  alt: null,
  capturedOn: null,
  licence: 'All rights reserved',
};
const batchSecond = {
  ...batchFirst,
  mediaId: 'med_c-NxC9BkS2RLuw_P',
  spotId: null,
  spotKey: null,
  order: 3,
  urls: {
    original: 'http://127.0.0.1:8080/media/blob_8yIXHXy5uaBGDfXK.jpg',
    large: 'http://127.0.0.1:8080/media/blob_WyYCNS2pnNk6L7YO.webp',
    medium: 'http://127.0.0.1:8080/media/blob_MsJwHDFGkgRQEEo0.webp',
    small: 'http://127.0.0.1:8080/media/blob_8TRakvWBKErLtyLs.webp',
  },
};
const listedPhoto = {
  ...vintgarPhoto,
  order: 0.5,
  caption: 'The boardwalk at eight, before the groups.',
  focalX: 0.4,
  focalY: 0.6,
  locationVerifiedBy: 'creator',
  shows: { kind: 'spot', label: 'Vintgar Gorge' },
  updatedAt: 1795428000002,
};

/**
 * The photos of the Slovenia story (recorded from a real run): one of Vintgar Gorge, two more in a batch.
 */
export const mediaExamples = {
  list_media: {
    input: { productId: 'gd_kKif6mbydYyv_ZEZ', spotId: 'sp_T5j-x6AA2bbpCfKB' },
    output: { productId: 'gd_kKif6mbydYyv_ZEZ', count: 1, media: [listedPhoto], total: 1 },
  },
  upload_media: {
    input: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      spotId: 'sp_T5j-x6AA2bbpCfKB',
      alt: 'Wooden boardwalk above the green Radovna river',
      credit: 'Maja Novak',
      capturedOn: '2026-09-14',
    },
    output: vintgarPhoto,
  },
  upload_media_batch: {
    input: {
      productId: 'gd_kKif6mbydYyv_ZEZ',
      spotIds: ['sp_T5j-x6AA2bbpCfKB', null],
      credit: 'Maja Novak',
      licence: 'All rights reserved',
    },
    output: { productId: 'gd_kKif6mbydYyv_ZEZ', count: 2, media: [batchFirst, batchSecond] },
  },
  update_media: {
    input: {
      mediaId: 'med__2S9etS5v5_RUnBo',
      caption: 'The boardwalk at eight, before the groups.',
      focalX: 0.4,
      focalY: 0.6,
      shows: { kind: 'spot', label: 'Vintgar Gorge' },
      locationVerifiedBy: 'creator',
    },
    output: { ok: true, mediaId: 'med__2S9etS5v5_RUnBo' },
  },
  reorder_media: {
    input: { mediaId: 'med__2S9etS5v5_RUnBo', order: 0.5 },
    output: { ok: true, mediaId: 'med__2S9etS5v5_RUnBo', order: 0.5 },
  },
  delete_media: {
    input: { mediaId: 'med__2S9etS5v5_RUnBo' },
    output: { ok: true, mediaId: 'med__2S9etS5v5_RUnBo', deleted: true },
  },
} satisfies Record<string, OperationExample>;
