import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AgreementStore } from '../../src/studio/agreement.store.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { saleGuide } from '../helpers/sale-guide.ts';
import { csrfOf, type StudioBrowser, signedInAs } from '../helpers/studio.ts';

function cardOf(text: string, productId: string): string {
  const at = text.indexOf(`data-guide-id="${productId}"`);
  assert.ok(at >= 0, `guide ${productId} is listed`);
  return text.slice(at, text.indexOf('</section>', at));
}

for (const { dialect, skip } of await testDialects()) {
  describe(`studio: the creator agreement and guides (${dialect})`, { skip }, () => {
    let h: Harness;
    let api: Api;
    let alice: StudioBrowser;
    let bob: StudioBrowser;
    before(async () => {
      h = await startServer({ dialect });
      api = apiFor(h, 'rest', h.alice.writeKey);
      alice = await signedInAs(h, h.alice.creatorId);
      bob = await signedInAs(h, h.bob.creatorId);
    });
    after(async () => {
      await api?.close();
      await h?.close();
    });

    it('a new agreement version makes price changes and publishing answer agreement_outdated until accepted', async () => {
      const productId = await newGuide(api, 'Agreement test');
      const publisher = apiFor(h, 'mcp', h.alice.publishKey);
      try {
        const agreement = new AgreementStore({ db: h.store.db, clock: h.clock, dialect: h.store.dialect });
        const v2 = await agreement.publish('Creator agreement', 'Version two: new terms for payouts.');
        assert.equal(v2.version, 2);
        assertError(
          await api.call('set_guide_price', { productId, amountMinor: 1900, currency: 'eur' }),
          'agreement_outdated',
        );
        assertError(await publisher.call('publish_changes', { productId }), 'agreement_outdated');

        const page = await alice.get('/studio/agreement');
        assert.equal(page.status, 200);
        assert.match(page.text, /Version two: new terms for payouts/);
        assert.match(page.text, /Until you accept it, setting a price and publishing answer agreement_outdated/);
        // A stale page (version 1) cannot accept version 2 unread.
        const stale = await alice.post('/studio/agreement', { _csrf: csrfOf(page.text), version: '1', accept: 'yes' });
        assert.equal(stale.status, 409);
        const unticked = await alice.post('/studio/agreement', { _csrf: csrfOf(page.text), version: '2' });
        assert.equal(unticked.status, 400);
        assertError(
          await api.call('set_guide_price', { productId, amountMinor: 1900, currency: 'eur' }),
          'agreement_outdated',
        );
        const accepted = await alice.post('/studio/agreement', {
          _csrf: csrfOf(page.text),
          version: '2',
          accept: 'yes',
        });
        assert.equal(accepted.status, 303);
        assert.match((await alice.get('/studio/agreement?done=accepted')).text, /You accepted version 2 on 2026-11-23/);
        assertOk(await api.call('set_guide_price', { productId, amountMinor: 1900, currency: 'eur' }));

        // Bob has not accepted version 2: his prices stay refused, whatever Alice did.
        const bobApi = apiFor(h, 'rest', h.bob.writeKey);
        const bobGuide = await newGuide(bobApi, 'Bob guide');
        assertError(
          await bobApi.call('set_guide_price', { productId: bobGuide, amountMinor: 1900, currency: 'eur' }),
          'agreement_outdated',
        );
        const bobPage = await bob.get('/studio/agreement');
        await bob.post('/studio/agreement', { _csrf: csrfOf(bobPage.text), version: '2', accept: 'yes' });
        assertOk(await bobApi.call('set_guide_price', { productId: bobGuide, amountMinor: 1900, currency: 'eur' }));
        await bobApi.close();
      } finally {
        await publisher.close();
      }
    });

    it('shows what blocks a guide, refuses to put it on sale until clear, then puts it on sale', async () => {
      const bare = await newGuide(api, 'Bare guide');
      const page = await alice.get('/studio/guides');
      const card = cardOf(page.text, bare);
      assert.match(card, /data-status>draft/);
      assert.match(card, /data-code="no_price"/);
      assert.match(card, /data-code="no_spots"/);
      const refused = await alice.post(`/studio/guides/${bare}/status`, { _csrf: csrfOf(page.text), to: 'published' });
      assert.equal(refused.status, 409);
      assert.match(cardOf(refused.text, bare), /data-code="no_price"/);
      assertOk(await api.call('get_guide', { productId: bare }));
      assert.equal((await api.call('get_guide', { productId: bare })).body.status, 'draft', 'still a draft');

      const guide = await saleGuide(h, api);
      const ready = await alice.get('/studio/guides');
      assert.doesNotMatch(cardOf(ready.text, guide.productId), /data-code=/, 'nothing blocks it');
      assert.equal((await fetch(guide.salesPageUrl)).status, 404, 'no sales page before it is on sale');
      const onSale = await alice.post(`/studio/guides/${guide.productId}/status`, {
        _csrf: csrfOf(ready.text),
        to: 'published',
      });
      assert.equal(onSale.status, 303, onSale.text.slice(0, 400));
      assert.equal(onSale.location, '/studio/guides?done=published');
      assert.equal((await fetch(guide.salesPageUrl)).status, 200, 'the sales page is live');
      const after = await alice.get('/studio/guides?done=published');
      assert.match(cardOf(after.text, guide.productId), /data-status>on sale/);

      const shown = await alice.post(`/studio/guides/${guide.productId}/visibility`, {
        _csrf: csrfOf(after.text),
        visible: 'on',
      });
      assert.equal(shown.status, 303);
      assert.equal((await api.call('get_guide', { productId: guide.productId })).body.visibleOnStore, true);

      const off = await alice.post(`/studio/guides/${guide.productId}/status`, {
        _csrf: csrfOf(after.text),
        to: 'archived',
      });
      assert.equal(off.status, 303);
      assert.equal((await api.call('get_guide', { productId: guide.productId })).body.status, 'archived');
      assert.equal((await fetch(guide.salesPageUrl)).status, 404, 'archived: off sale');
    });

    it("another creator can neither see nor move Alice's guides", async () => {
      const productId = await newGuide(api, 'Private guide');
      const page = await bob.get('/studio/guides');
      assert.ok(!page.text.includes(productId));
      for (const [path, fields] of [
        [`/studio/guides/${productId}/status`, { to: 'archived' }],
        [`/studio/guides/${productId}/visibility`, { visible: 'on' }],
      ] as const) {
        const attempt = await bob.post(path, { _csrf: csrfOf(page.text), ...fields });
        assert.equal(attempt.status, 404, path);
      }
      const guide = (await api.call('get_guide', { productId })).body;
      assert.equal(guide.status, 'draft');
      assert.equal(guide.visibleOnStore, false);
    });

    it('the guide and agreement forms refuse posts without a token or from another site', async () => {
      const productId = await newGuide(api, 'CSRF guide');
      const page = await alice.get('/studio/guides');
      const token = csrfOf(page.text);
      const forms: Array<[string, Record<string, string>]> = [
        [`/studio/guides/${productId}/status`, { to: 'archived' }],
        [`/studio/guides/${productId}/visibility`, { visible: 'on' }],
        ['/studio/agreement', { version: '2', accept: 'yes' }],
      ];
      for (const [path, fields] of forms) {
        assert.equal((await alice.post(path, fields)).status, 403, `${path} without a token`);
        const cross = await alice.post(
          path,
          { _csrf: token, ...fields },
          { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        );
        assert.equal(cross.status, 403, `${path} from another site`);
      }
      const guide = (await api.call('get_guide', { productId })).body;
      assert.equal(guide.status, 'draft');
      assert.equal(guide.visibleOnStore, false);
    });
  });
}
