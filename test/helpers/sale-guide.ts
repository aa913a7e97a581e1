import assert from 'node:assert/strict';
import { goLive } from '../../src/admin/go-live.ts';
import { assertOk } from './answers.ts';
import type { Api } from './api.ts';
import { newGuide } from './fixtures.ts';
import type { Harness } from './harness.ts';
import { flat } from './images.ts';
import { uploadRaw } from './uploads.ts';

/** A photo of the guide (of a spot when spotId is given), large enough to have three display sizes. */
export async function photo(
  h: Harness,
  productId: string,
  fields: { credit?: string; spotId?: string; alt?: string; colour?: string },
): Promise<string> {
  const { colour = '#3b7a9c', ...rest } = fields;
  const bytes = await flat(1600, 1000, colour).jpeg({ quality: 70 }).toBuffer();
  const res = await uploadRaw(h, h.alice.writeKey, bytes, 'image/jpeg', { productId, ...rest });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.mediaId as string;
}

/** Three lakes of Slovenia with pins; Bled has a photo of its own. */
export const SPOTS = [
  {
    spotKey: 'bled',
    name: 'Lake Bled',
    lat: 46.3636,
    lon: 14.0938,
    description: 'The island church at sunrise, before the boats start.\n\nA second paragraph buyers read inside.',
  },
  {
    spotKey: 'bohinj',
    name: 'Lake Bohinj',
    lat: 46.2833,
    lon: 13.8856,
    description: 'Quiet water under the Julian Alps.',
  },
  { spotKey: 'vintgar', name: 'Vintgar Gorge', lat: 46.393, lon: 14.0853 },
];

export const SALES_PAGE = {
  headline: 'Slovenian lakes without the crowds',
  promise: 'The quiet hours at every lake, and where to park.',
  sections: [
    {
      heading: 'Who it is for',
      paragraphs: ['Walkers who start early.', 'You get:\n- the first boat times\n- parking that fills last'],
    },
  ],
  highlights: ['Sunrise at Bled'],
  included: ['3 lakes with opening hours'],
  sampleSpotKeys: ['bled', 'bohinj', 'vintgar'],
  faq: [{ question: 'Do I need a car?', answer: 'It helps; buses run too.' }],
  searchTitle: 'Slovenian lakes guide',
  searchDescription: 'Quiet hours at Bled, Bohinj and Vintgar.',
};

export interface SaleGuide {
  productId: string;
  salesPageUrl: string;
  spotIds: Record<string, string>;
  hero: string;
  galleryPhoto: string;
}

/**
 * A guide with a price, three spots, photos and a saved sales page draft: everything a sales page
 * shows, not yet on sale. `api` writes with Alice's write key.
 */
export async function saleGuide(h: Harness, api: Api, name = 'Lakes of Slovenia'): Promise<SaleGuide> {
  const productId = await newGuide(api, name);
  assertOk(await api.call('set_guide_price', { productId, amountMinor: 2900, currency: 'eur' }));
  assertOk(
    await api.call('set_guide_region', {
      productId,
      label: 'Julian Alps',
      centerLat: 46.33,
      centerLon: 14.0,
      defaultZoom: 10,
      bbox: [13.7, 46.2, 14.3, 46.5],
    }),
  );
  const upserted = await api.call('upsert_spots', { productId, spots: SPOTS });
  assertOk(upserted);
  const spotIds = Object.fromEntries(
    (upserted.body.spots as Array<{ spotKey: string; spotId: string }>).map((s) => [s.spotKey, s.spotId]),
  );
  const hero = await photo(h, productId, { credit: 'Ana Novak', alt: 'Bled island at dawn' });
  const galleryPhoto = await photo(h, productId, { credit: 'Marko Kos', colour: '#6a8f3a' });
  await photo(h, productId, { credit: 'Eva Zupan', spotId: spotIds.bled as string, colour: '#9c6b3b' });
  assertOk(
    await api.call('save_sales_page_draft', {
      productId,
      ...SALES_PAGE,
      heroMediaId: hero,
      gallery: [{ mediaId: galleryPhoto, caption: 'Bohinj from the east shore' }],
    }),
  );
  const guide = await api.call('get_guide', { productId });
  assertOk(guide);
  return { productId, salesPageUrl: guide.body.salesPageUrl as string, spotIds, hero, galleryPhoto };
}

/** The studio puts the guide on sale, which writes its first release (as `guide status --to published`). */
export async function putOnSale(h: Harness, productId: string): Promise<void> {
  const live = await goLive(h.store, h.clock, productId);
  assert.ok(live, `guide ${productId} went on sale`);
}

/** The page at an address, its status, headers and text. */
export async function openPage(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
