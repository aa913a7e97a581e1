import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Api, apiFor } from '../helpers/api.ts';
import { browserSkip, TEST_RESULTS, useBrowser } from '../helpers/browser.ts';
import { putOnSale, type SaleGuide, saleGuide } from '../helpers/sale-guide.ts';
import { assertLabelsApart, madeiraGuide } from './map-browser.ts';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** The hero's credit links to the photographer: a URL holding the characters escaping must get right. */
const HERO_CREDIT_URL = 'https://example.com/ana?x=1&y="2"';

/** The page buyers open, in a real browser: readable on a phone, complete, and asking nothing of any other host. */
describe("the buyers' page in Chromium", { skip: browserSkip() }, () => {
  const suite = useBrowser();
  let api: Api;
  let guide: SaleGuide;
  let madeiraUrl: string;
  before(async () => {
    const { h } = suite;
    api = apiFor(h, 'rest', h.alice.writeKey);
    guide = await saleGuide(h, api);
    const linked = await api.call('update_media', { mediaId: guide.hero, creditUrl: HERO_CREDIT_URL });
    assert.equal(linked.ok, true, JSON.stringify(linked.body));
    await putOnSale(h, guide.productId);
    madeiraUrl = await madeiraGuide(h, api);
  });
  after(() => api?.close());

  for (const viewport of VIEWPORTS) {
    it(`${viewport.name} (${viewport.width}x${viewport.height}): headline, price, credits and map show; nothing overflows`, async () => {
      const { browser } = suite;
      const b = await browser.newPage();
      await b.page.setViewportSize({ width: viewport.width, height: viewport.height });
      const answer = await b.page.goto(guide.salesPageUrl, { waitUntil: 'load' });
      assert.equal(answer?.status(), 200);
      const headline = b.page.getByRole('heading', { level: 1 });
      assert.equal(await headline.textContent(), 'Slovenian lakes without the crowds');
      assert.ok(await headline.isVisible());
      assert.ok(await b.page.locator('.buy .price').isVisible());
      assert.equal(await b.page.locator('.buy .price').textContent(), '€29.00');
      assert.ok(await b.page.locator('.bar').isVisible(), 'the price stays in view');
      const credits = await b.page.locator('.credit').allTextContents();
      assert.deepEqual(credits, ['Photo: Ana Novak', 'Photo: Eva Zupan', 'Photo: Marko Kos']);
      assert.ok(await b.page.locator('.hero .credit').isVisible());
      const link = b.page.locator('.hero .credit a');
      assert.equal(await link.textContent(), 'Ana Novak', 'the linked credit reads as the name');
      assert.equal(await link.getAttribute('href'), HERO_CREDIT_URL);
      const map = b.page.locator('svg[aria-label="Map of the sample spots"]');
      await map.scrollIntoViewIfNeeded();
      assert.ok(await map.isVisible());
      assert.equal(await map.locator('.pin').count(), 3);
      const mapBox = await map.boundingBox();
      assert.ok(mapBox && mapBox.width <= viewport.width, 'the map fits the screen');
      assert.equal(await assertLabelsApart(b.page), 3, 'every name on the map, none over another or a marker');
      const byline = b.page.locator('.byline');
      assert.equal(await byline.textContent(), 'A guide by Alice');
      assert.ok(await byline.isVisible());
      // The gallery's caption and credit: two lines, the credit under the caption, not run together.
      const caption = await b.page.locator('.gallery .caption').boundingBox();
      const galleryCredit = await b.page.locator('.gallery .credit').boundingBox();
      assert.ok(
        caption && galleryCredit && galleryCredit.y >= caption.y + caption.height - 0.5,
        'credit below caption',
      );
      assert.equal(
        // biome-ignore lint/performance/useDomNodeTextContent: the text as laid out is what is checked (two lines)
        await b.page.locator('.gallery figcaption').evaluate((el: any) => el.innerText as string),
        'Bohinj from the east shore\nPhoto: Marko Kos',
      );

      // Every photo loaded, from this service.
      await b.page.locator('img').last().scrollIntoViewIfNeeded();
      // Run in the page (this project compiles without DOM types: the page's globals are untyped here).
      await b.page.waitForFunction(() =>
        [...(globalThis as any).document.images].every((img: any) => img.complete && img.naturalWidth > 0),
      );
      const overflow = await b.page.evaluate(() => {
        const w = globalThis as any;
        return { scrollWidth: w.document.scrollingElement.scrollWidth as number, innerWidth: w.innerWidth as number };
      });
      assert.ok(
        overflow.scrollWidth <= overflow.innerWidth,
        `no sideways scrolling: ${overflow.scrollWidth} > ${overflow.innerWidth}`,
      );
      const fontSize = await b.page.evaluate(() => {
        const w = globalThis as any;
        return Number.parseFloat(w.getComputedStyle(w.document.body).fontSize);
      });
      assert.ok(fontSize >= 16, `readable text: ${fontSize}px`);

      await b.page.locator('summary').first().click();
      assert.ok(await b.page.getByText('It helps; buses run too.').isVisible(), 'the FAQ opens');

      const shot = await b.screenshot(`buyers-page-${viewport.name}`);
      assert.ok(shot.endsWith(`buyers-page-${viewport.name}.png`));
      assert.deepEqual(b.outside, [], 'the page asks nothing of any other host');
      assert.deepEqual(b.errors, [], 'no console errors, no refused styles');
      assert.ok(
        b.requests.some((r) => r.includes('/media/')),
        'photos came from this service',
      );
      await b.page.context().close();
    });
  }

  for (const viewport of VIEWPORTS) {
    it(`${viewport.name}: Madeira's map has land and sea, and every name apart from the others and the markers`, async () => {
      const { browser } = suite;
      const b = await browser.newPage();
      await b.page.setViewportSize({ width: viewport.width, height: viewport.height });
      assert.equal((await b.page.goto(madeiraUrl, { waitUntil: 'load' }))?.status(), 200);
      const map = b.page.locator('svg[aria-label="Map of the sample spots"]');
      await map.scrollIntoViewIfNeeded();
      assert.ok(await map.locator('.land').isVisible(), 'the island is drawn');
      assert.ok(await map.locator('.sea').isVisible(), 'and the sea around it');
      assert.equal(await assertLabelsApart(b.page), 6, 'all six names, Pico Ruivo beside Pico do Arieiro');
      const shot = await map.screenshot({ path: `${TEST_RESULTS}buyers-page-map-madeira-${viewport.name}.png` });
      assert.ok(shot.length > 1000);
      await b.screenshot(`buyers-page-madeira-${viewport.name}`);
      assert.deepEqual(b.outside, [], 'the map asks nothing of any other host');
      assert.deepEqual(b.errors, []);
      await b.page.context().close();
    });
  }

  it('an unknown address shows the not-found page with no errors', async () => {
    const { h, browser } = suite;
    const b = await browser.newPage();
    const answer = await b.page.goto(`${h.origin}/g/nobody/nothing`);
    assert.equal(answer?.status(), 404);
    assert.equal(await b.page.getByRole('heading', { level: 1 }).textContent(), 'Guide not found');
    assert.deepEqual(b.outside, []);
    // The 404 itself is logged by Chromium as a failed resource; nothing else may be.
    assert.deepEqual(
      b.errors.filter((e) => !/status of 404/.test(e)),
      [],
    );
    await b.page.context().close();
  });
});
