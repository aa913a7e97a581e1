import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { apiFor } from '../helpers/api.ts';
import { browserSkip, signInChromium, useBrowser } from '../helpers/browser.ts';
import { testDialects } from '../helpers/dialects.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';

const MY_MAPS = fileURLToPath(new URL('../files/fixtures/my-maps.kml', import.meta.url));

for (const { dialect, skip } of await testDialects()) {
  describe(`the Files page in Chromium (${dialect})`, { skip: skip || browserSkip() }, () => {
    const suite = useBrowser({ dialect });

    it('imports a My Maps file after showing what it would do, and downloads a KML', async () => {
      const { h, browser } = suite;
      const api = apiFor(h, 'rest', h.alice.writeKey);
      const b = await browser.newPage();
      const { page } = b;
      try {
        const productId = await newGuide(api, 'Dolomites');
        await signInChromium(h, page);
        await page
          .locator(`[data-guide-id="${productId}"]`)
          .getByRole('link', { name: 'Import a file or download' })
          .click();
        await page.getByRole('heading', { name: 'Files of Dolomites' }).waitFor();
        await page.getByLabel('File', { exact: true }).setInputFiles(MY_MAPS);
        await page.getByRole('button', { name: 'Check the file' }).click();
        await page.getByRole('heading', { name: 'What the file would change' }).waitFor();
        assert.equal(await page.locator('[data-counts]').textContent(), '5 created, 0 updated, 0 unchanged, 1 skipped');
        assert.match((await page.locator('[data-skip]').textContent()) ?? '', /^Placemark 5.*polygon/i);
        assert.equal((await guideOf(api, productId)).spotCount, 0, 'nothing written before the confirm');
        await b.screenshot(`studio-files-dry-run-${dialect}`);
        await page.getByRole('button', { name: 'Import' }).click();
        await page.getByText('Imported: 5 created, 0 updated, 0 unchanged, 1 skipped.').waitFor();
        assert.equal((await guideOf(api, productId)).spotCount, 4);
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('link', { name: 'Download kml' }).click(),
        ]);
        assert.match(download.suggestedFilename(), /\.kml$/);
        assert.deepEqual(b.outside, [], 'nothing asked of another host');
      } finally {
        await b.page.close();
        await api.close();
      }
    });
  });
}
