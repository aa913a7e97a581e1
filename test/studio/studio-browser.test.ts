import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { apiFor } from '../helpers/api.ts';
import { type BrowserPage, browserSkip, useBrowser } from '../helpers/browser.ts';
import type { Harness } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';
import { fullGuide } from './preview-fixture.ts';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** Nothing wider than the screen: no sideways scrolling on a phone. */
async function assertFits(page: Page, where: string): Promise<void> {
  const sizes = await page.evaluate(() => {
    const w = globalThis as any;
    return { scrollWidth: w.document.scrollingElement.scrollWidth as number, innerWidth: w.innerWidth as number };
  });
  assert.ok(sizes.scrollWidth <= sizes.innerWidth, `${where}: ${sizes.scrollWidth} > ${sizes.innerWidth}`);
}

function clean(b: BrowserPage, where: string): void {
  assert.deepEqual(b.outside, [], `${where}: nothing asked of another host`);
  assert.deepEqual(b.errors, [], `${where}: no console errors (a refused style or a CSP report shows here)`);
}

/** A creator's whole first session in the studio, in Chromium, with no admin command. */
describe('the studio in Chromium', { skip: browserSkip() }, () => {
  const suite = useBrowser();

  for (const viewport of VIEWPORTS) {
    it(`${viewport.name}: sign up, a key shown once, revoke, accept the agreement, put a guide on sale, preview`, async () => {
      const { h, browser } = suite;
      const b = await browser.newPage();
      const { page } = b;
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const shot = (name: string) => b.screenshot(`studio-${name}-${viewport.name}`);

      await page.goto(`${h.origin}/studio`);
      assert.equal(new URL(page.url()).pathname, '/studio/sign-in');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Your name as buyers see it').fill(`Nina ${viewport.name}`);
      await page.getByLabel('Email').fill(`nina-${viewport.name}@example.com`);
      await page.getByLabel(/^Password/).fill('a long studio password');
      await shot('sign-up');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL('**/studio/guides', { timeout: 5000 }).catch(async () => {
        throw new Error(`not on the guides page: ${page.url()}\n${(await page.content()).slice(-1500)}`);
      });
      assert.ok(await page.getByText('Accept the creator agreement').isVisible());
      clean(b, 'sign-up');

      // A key, shown once.
      await page.getByRole('navigation').getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name').fill('Claude');
      await page.getByLabel(/Read and write/).check();
      await page.getByLabel(/Also publish/).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.locator('[data-secret]').textContent())?.trim() ?? '';
      assert.match(secret, /^sk_service_/);
      assert.ok(await page.getByText('It is not shown again').isVisible());
      await assertFits(page, 'new key');
      await shot('key-shown-once');
      const me = await rest(h.baseUrl, secret, 'GET', '/me');
      assert.equal(me.status, 200);
      assert.deepEqual(me.body.key.scopes, ['read', 'write', 'publish']);
      await page.goto(`${h.origin}/studio/keys`);
      assert.equal(await page.locator('[data-secret]').count(), 0, 'never shown again');
      assert.ok(!(await page.content()).includes(secret));

      // Another key, revoked.
      await page.getByLabel('Name').fill('Old laptop');
      await page.getByRole('button', { name: 'Create key' }).click();
      const old = (await page.locator('[data-secret]').textContent())?.trim() ?? '';
      await page.getByRole('button', { name: 'Revoke Old laptop' }).click();
      assert.ok(await page.getByText('The key is revoked').isVisible());
      assert.equal((await rest(h.baseUrl, old, 'GET', '/me')).status, 401);
      await assertFits(page, 'keys');
      await shot('keys-revoked');
      clean(b, 'keys');

      // The agreement: until it is accepted, a price is refused.
      const key = secret;
      const api = apiFor(h, 'rest', key);
      const refused = await api.call('create_guide', { name: 'Before the agreement' });
      const early = await api.call('set_guide_price', {
        productId: refused.body.productId,
        amountMinor: 900,
        currency: 'eur',
      });
      assert.equal(early.body.error?.code, 'agreement_outdated');
      await page.getByRole('navigation').getByRole('link', { name: 'Agreement' }).click();
      await page.getByLabel(/I have read version 1/).check();
      await page.getByRole('button', { name: 'Accept the agreement' }).click();
      assert.ok(await page.getByText('the agreement is accepted').isVisible());
      await assertFits(page, 'agreement');
      await shot('agreement-accepted');

      // A guide built with the key, put on sale in the studio.
      const creatorId = me.body.creatorId as string;
      const asNina = { ...h, alice: { ...h.alice, creatorId, writeKey: key } } as Harness;
      const guide = await fullGuide(asNina, api, `Lakes ${viewport.name}`);
      await api.close();
      await page.getByRole('navigation').getByRole('link', { name: 'Guides' }).click();
      const card = page.locator(`[data-guide-id="${guide.productId}"]`);
      assert.equal(await card.locator('[data-status]').textContent(), 'draft');
      await card.getByRole('button', { name: 'Put on sale' }).click();
      assert.ok(await page.getByText('The guide is on sale').isVisible());
      assert.equal(await card.locator('[data-status]').textContent(), 'on sale');
      await card.getByRole('button', { name: 'Show in store' }).click();
      assert.equal(await card.locator('[data-visibility]').textContent(), 'shown in store');
      await assertFits(page, 'guides');
      await shot('guide-on-sale');
      clean(b, 'guides');
      const live = await fetch(guide.salesPageUrl);
      assert.equal(live.status, 200, 'buyers can open its sales page');

      // Its preview.
      await card.getByRole('link', { name: 'Preview the working copy' }).click();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Slovenian lakes without the crowds');
      assert.ok(await page.getByText('Preview of your working copy').isVisible());
      await page.getByRole('heading', { name: 'Inside the guide' }).scrollIntoViewIfNeeded();
      assert.ok(await page.locator('svg[aria-label="Track of the hike"]').isVisible());
      // Photos load lazily: bring each into view, then every one must have loaded, from this service.
      for (const img of await page.locator('img').all()) await img.scrollIntoViewIfNeeded();
      await page.waitForFunction(() =>
        [...(globalThis as any).document.images].every((img: any) => img.complete && img.naturalWidth > 0),
      );
      await assertFits(page, 'preview');
      await shot('preview');
      clean(b, 'preview');
      await page.context().close();
    });
  }
});
