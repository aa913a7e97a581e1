import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { salesPageContentSchema } from '../../src/resources/sales-page/index.ts';
import { assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { openPage, putOnSale, saleGuide } from '../helpers/sale-guide.ts';

const byline = (html: string) =>
  /<p class="byline">A guide by <span class="creator">([^<]*)<\/span><\/p>/.exec(html)?.[1];

/** Who made the guide, on the page buyers open: the creator's name as of the release, and captions apart from credits. */
for (const { dialect, skip } of await testDialects()) {
  describe(`the buyers' page names the creator and keeps captions apart from credits (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    it("shows the profile's display name under the headline, in the footer and as the page's author", async () => {
      const g = await saleGuide(suite.h, suite.apis.rest, 'Byline lakes');
      await putOnSale(suite.h, g.productId);
      const { displayName } = (await suite.apis.rest.call('get_profile', {})).body;
      const page = await openPage(g.salesPageUrl);
      assert.equal(page.status, 200);
      assert.equal(byline(page.text), displayName);
      assert.match(page.text, new RegExp(`<meta name="author" content="${displayName}">`));
      assert.match(page.text, new RegExp(`<footer><p>Byline lakes · by ${displayName}</p></footer>`));
      // The headline, then who made it: the byline comes right after the h1.
      assert.match(page.text, /<\/h1>\n<p class="byline">/);
    });

    it('the gallery caption and the credit are separate elements, caption first', async () => {
      const g = await saleGuide(suite.h, suite.apis.rest, 'Captioned lakes');
      await putOnSale(suite.h, g.productId);
      const page = await openPage(g.salesPageUrl);
      assert.match(
        page.text,
        /<figcaption><span class="caption">Bohinj from the east shore<\/span><span class="credit">Photo: Marko Kos<\/span><\/figcaption>/,
      );
    });

    for (const transport of transports) {
      it(`a rename over ${transport} reaches buyers with the next publish, not before`, async () => {
        const api = suite.apis[transport];
        const g = await saleGuide(suite.h, suite.apis.rest, `Renamed lakes ${transport}`);
        await putOnSale(suite.h, g.productId);
        const before = await openPage(g.salesPageUrl);
        const oldName = byline(before.text);
        assert.ok(oldName);

        const newName = `Ana & <Trails> ${transport}`;
        assertOk(await api.call('update_profile', { displayName: newName }));
        const during = await openPage(g.salesPageUrl);
        assert.equal(during.text, before.text, 'the release keeps the name it was published with');
        const status = await api.call('get_publish_status', { productId: g.productId });
        assertOk(status);
        assert.equal(status.body.differs, true, 'the next publish would change what buyers see');
        assert.deepEqual(status.body.changes, [{ kind: 'guide', added: 0, changed: 1, removed: 0 }]);

        const publisher = apiFor(suite.h, transport, suite.h.alice.publishKey);
        try {
          const published = await publisher.call('publish_changes', { productId: g.productId });
          assertOk(published);
          assert.equal(published.body.published, true);
        } finally {
          await publisher.close();
        }
        const after = await openPage(g.salesPageUrl);
        assert.equal(byline(after.text), `Ana &amp; &lt;Trails&gt; ${transport}`, 'the new name, as text');
        assert.doesNotMatch(after.text, /<Trails>/);

        // get_sales_page answers the sales page as before: the name is the guide's, not the page's.
        const read = await api.call('get_sales_page', { productId: g.productId });
        assertOk(read);
        assert.deepEqual(
          Object.keys(read.body.live).sort(),
          [...Object.keys(salesPageContentSchema.shape), 'deletedMediaIds'].sort(),
        );
      });
    }
  });
}
