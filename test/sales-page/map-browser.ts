import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { assertOk } from '../helpers/answers.ts';
import type { Api } from '../helpers/api.ts';
import { newGuide } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';
import { putOnSale } from '../helpers/sale-guide.ts';
import { MADEIRA } from './madeira.ts';

/** The Madeira guide on sale, its six spots the sales page's sample spots; its salesPageUrl. */
export async function madeiraGuide(h: Harness, api: Api): Promise<string> {
  const productId = await newGuide(api, 'Madeira: levadas and peaks');
  assertOk(await api.call('set_guide_price', { productId, amountMinor: 1900, currency: 'eur' }));
  const [west, south, east, north] = MADEIRA.region;
  assertOk(
    await api.call('set_guide_region', {
      productId,
      label: 'Madeira',
      centerLat: (south + north) / 2,
      centerLon: (west + east) / 2,
      defaultZoom: 10,
      bbox: MADEIRA.region,
    }),
  );
  assertOk(await api.call('upsert_spots', { productId, spots: MADEIRA.spots }));
  assertOk(
    await api.call('save_sales_page_draft', {
      productId,
      headline: 'Madeira on foot',
      sampleSpotKeys: MADEIRA.spots.map((s) => s.spotKey),
    }),
  );
  await putOnSale(h, productId);
  return (await api.call('get_guide', { productId })).body.salesPageUrl as string;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Reads the map's labels and markers as Chromium drew them (the boxes of the rendered glyphs, in
 * screen pixels) and asserts that no label overlaps another, covers a marker or leaves the map.
 * Answers how many labels there are.
 */
export async function assertLabelsApart(page: Page): Promise<number> {
  // Run in the page (this project compiles without DOM types: the page's globals are untyped here).
  const drawn = await page.evaluate(() => {
    const svg = (globalThis as any).document.querySelector('svg[role="img"]');
    const box = (el: any) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, text: el.textContent as string };
    };
    return {
      map: box(svg),
      labels: [...svg.querySelectorAll('text.label')].map(box),
      markers: [...svg.querySelectorAll('circle.pin')].map(box),
    };
  });
  const apart = (a: Box, b: Box) =>
    a.x + a.width <= b.x + 0.5 ||
    b.x + b.width <= a.x + 0.5 ||
    a.y + a.height <= b.y + 0.5 ||
    b.y + b.height <= a.y + 0.5;
  const { map } = drawn;
  for (const [i, label] of drawn.labels.entries()) {
    assert.ok(label.width > 0 && label.height > 0, `${label.text} is drawn`);
    assert.ok(
      label.x >= map.x - 0.5 &&
        label.y >= map.y - 0.5 &&
        label.x + label.width <= map.x + map.width + 0.5 &&
        label.y + label.height <= map.y + map.height + 0.5,
      `${label.text} inside the map: ${JSON.stringify({ label, map })}`,
    );
    for (const other of drawn.labels.slice(i + 1)) {
      assert.ok(apart(label, other), `${label.text} and ${other.text} overlap: ${JSON.stringify([label, other])}`);
    }
    for (const marker of drawn.markers) {
      const r = marker.width / 2;
      const [cx, cy] = [marker.x + r, marker.y + r];
      const dx = cx - Math.max(label.x, Math.min(cx, label.x + label.width));
      const dy = cy - Math.max(label.y, Math.min(cy, label.y + label.height));
      assert.ok(dx * dx + dy * dy >= (r - 0.5) ** 2, `${label.text} covers marker ${marker.text}`);
    }
  }
  return drawn.labels.length;
}
