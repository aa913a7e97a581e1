import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor } from '../helpers/api.ts';
import { type BrowserPage, browserSkip, signInChromium, useBrowser } from '../helpers/browser.ts';
import { testDialects } from '../helpers/dialects.ts';
import { changesOf, newGuide } from '../helpers/fixtures.ts';
import { putOnSale, saleGuide } from '../helpers/sale-guide.ts';
import { wholeGuide } from '../helpers/whole-guide.ts';

/** The page of a blocked undo answers 409, which Chromium logs; nothing else may show. */
const BLOCKED = 'console: Failed to load resource: the server responded with a status of 409 (Conflict)';

function clean(b: BrowserPage, where: string): void {
  assert.deepEqual(b.outside, [], `${where}: nothing asked of another host`);
  assert.deepEqual(
    b.errors.filter((e) => e !== BLOCKED),
    [],
    `${where}: no console errors (a refused style or a CSP report shows here)`,
  );
}

for (const { dialect, skip } of await testDialects()) {
  describe(`the History page in Chromium (${dialect})`, { skip: skip || browserSkip() }, () => {
    const suite = useBrowser({ dialect });

    it('opens from the guides page, undoes a change and a session after confirming, and explains a blocked undo', async () => {
      const { h, browser } = suite;
      const { key } = await h.keys.create({
        creatorId: h.alice.creatorId,
        name: 'Trip assistant',
        scope: 'write',
        publish: false,
      });
      const api = apiFor(h, 'rest', key);
      const b = await browser.newPage();
      const { page } = b;
      try {
        const productId = await newGuide(api, 'Lisbon in a weekend');
        const cathedral = (await api.call('create_spot', { productId, name: 'Lisbon Cathedral' })).body.spotId;
        assertOk(await api.call('update_spot', { spotId: cathedral, description: 'The oldest church.' }));
        h.clock.advance(40 * 60 * 1000);
        const tower = (await api.call('create_spot', { productId, name: 'Belém Tower' })).body.spotId;
        const [towerMade, described, cathedralMade] = await changesOf(api, productId);

        await signInChromium(h, page);
        await page.locator(`[data-guide-id="${productId}"]`).getByRole('link', { name: 'History' }).click();
        await page.getByRole('heading', { name: 'History of Lisbon in a weekend' }).waitFor();
        assert.equal(await page.locator('[data-session]').count(), 2);
        assert.ok(await page.getByText('Updated spot Lisbon Cathedral').isVisible());
        await b.screenshot(`studio-history-${dialect}`);
        // On a phone nothing is wider than the screen.
        await page.setViewportSize({ width: 390, height: 844 });
        const widths = await page.evaluate(() => {
          const w = globalThis as any;
          return [w.document.scrollingElement.scrollWidth as number, w.innerWidth as number];
        });
        assert.ok((widths[0] as number) <= (widths[1] as number), `fits a phone: ${widths}`);
        await b.screenshot(`studio-history-phone-${dialect}`);

        // One change: the button leads to a confirm page, and only its button undoes.
        await page.locator(`li[data-change-id="${towerMade.changeId}"]`).getByRole('button', { name: 'Undo' }).click();
        await page.getByRole('heading', { name: 'Undo this change?' }).waitFor();
        assertOk(await api.call('get_spot', { spotId: tower }));
        await page.getByRole('button', { name: 'Yes, undo' }).click();
        await page.getByText('Undone. The undo is a change too').waitFor();
        assertError(await api.call('get_spot', { spotId: tower }), 'not_found');
        assert.deepEqual((await changesOf(api, productId))[0].by, { kind: 'studio', name: 'the studio' });

        // The older session's first change alone: its later edit of the same spot blocks it.
        await page
          .locator(`li[data-change-id="${cathedralMade.changeId}"]`)
          .getByRole('button', { name: 'Undo' })
          .click();
        await page.getByRole('button', { name: 'Yes, undo' }).click();
        await page.getByRole('heading', { name: 'Later changes touched the same records' }).waitFor();
        assert.ok(await page.locator(`li[data-change-id="${described.changeId}"]`).isVisible());
        assertOk(await api.call('get_spot', { spotId: cathedral }));
        await page.getByRole('button', { name: 'Undo them all together' }).click();
        await page.getByText('Undone. The undo is a change too').waitFor();
        assertError(await api.call('get_spot', { spotId: cathedral }), 'not_found');

        // A whole session: both undos of the studio are one session; undoing it is a redo of both.
        await page.getByRole('button', { name: 'Undo this session (2)' }).click();
        await page.getByRole('heading', { name: 'Undo these 2 changes?' }).waitFor();
        await page.getByRole('button', { name: 'Yes, undo' }).click();
        await page.getByText('Undone. The undo is a change too').waitFor();
        assert.equal((await api.call('get_spot', { spotId: tower })).body.name, 'Belém Tower');
        assert.equal((await api.call('get_spot', { spotId: cathedral })).body.description, 'The oldest church.');
        clean(b, 'history');
      } finally {
        await page.context().close();
        await api.close();
      }
    });

    it('compares a release, restores it after confirming, and undoes the restore from the notice', async () => {
      const { h, browser } = suite;
      const { key } = await h.keys.create({
        creatorId: h.alice.creatorId,
        name: 'Laptop',
        scope: 'write',
        publish: true,
      });
      const api = apiFor(h, 'rest', key);
      const b = await browser.newPage();
      const { page } = b;
      try {
        const { productId, spotIds } = await saleGuide(h, api, 'Lakes of Slovenia');
        await putOnSale(h, productId);
        const atRelease1 = await wholeGuide(h, productId);
        assertOk(await api.call('create_spot', { productId, name: 'Savica waterfall' }), 201);
        assertOk(await api.call('update_spot', { spotId: spotIds.bled, name: 'Lake Bled, island side' }));
        const working = await wholeGuide(h, productId);

        await signInChromium(h, page);
        await page.goto(`${h.origin}/studio/guides/${productId}/history`);
        const release = page.locator('[data-release="1"]');
        assert.match((await release.textContent()) ?? '', /You, in the studio[\s\S]*It held: [^\n]*3 spots/);
        await release.getByRole('link', { name: 'Differences' }).click();
        await page.getByRole('heading', { name: 'Release 1 of Lakes of Slovenia' }).waitFor();
        assert.ok(await page.getByRole('cell', { name: 'Savica waterfall' }).isVisible());
        assert.ok(await page.getByRole('cell', { name: 'Lake Bled' }).isVisible(), 'named as the release held it');
        await b.screenshot(`studio-release-differences-${dialect}`);

        await page.getByRole('button', { name: 'Restore release 1' }).click();
        await page.getByRole('heading', { name: 'Restore release 1?' }).waitFor();
        assert.deepEqual(await wholeGuide(h, productId), working, 'asking restores nothing');
        await page.getByRole('button', { name: 'Yes, restore release 1' }).click();
        await page.getByText('Release 1 restored.').waitFor();
        assert.deepEqual(await wholeGuide(h, productId), atRelease1);
        const [restore] = await changesOf(api, productId);
        assert.equal(restore.operation, 'restore_release');
        assert.deepEqual(restore.by, { kind: 'studio', name: 'the studio' });
        await b.screenshot(`studio-release-restored-${dialect}`);

        await page.getByRole('button', { name: 'Undo the restore' }).click();
        await page.getByRole('heading', { name: 'Undo this change?' }).waitFor();
        await page.getByRole('button', { name: 'Yes, undo' }).click();
        await page.getByText('Undone. The undo is a change too').waitFor();
        assert.deepEqual(await wholeGuide(h, productId), working);
        clean(b, 'releases');
      } finally {
        await page.context().close();
        await api.close();
      }
    });
  });
}
