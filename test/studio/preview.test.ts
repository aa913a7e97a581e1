import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { putOnSale } from '../helpers/sale-guide.ts';
import { type StudioBrowser, signedInAs } from '../helpers/studio.ts';
import { type FullGuide, fullGuide } from './preview-fixture.ts';

async function open(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`preview of the working copy (${dialect})`, { skip }, () => {
    let h: Harness;
    let api: Api;
    let guide: FullGuide;
    let alice: StudioBrowser;
    before(async () => {
      h = await startServer({ dialect });
      api = apiFor(h, 'rest', h.alice.writeKey);
      guide = await fullGuide(h, api);
      alice = await signedInAs(h, h.alice.creatorId);
    });
    after(async () => {
      await api?.close();
      await h?.close();
    });

    for (const transport of transports) {
      it(`create_preview_link answers a link that shows everything buyers will open (${transport})`, async () => {
        const writer = apiFor(h, transport, h.alice.writeKey);
        try {
          const answer = await writer.call('create_preview_link', { productId: guide.productId });
          assertOk(answer);
          const { url, expiresAt } = answer.body as { url: string; expiresAt: number };
          assert.equal(expiresAt, h.clock.now() + 3600_000, 'an hour');
          assert.match(url, new RegExp(`^${h.origin}/studio/preview\\?token=[\\w-]{43}$`));
          const page = await open(url);
          assert.equal(page.status, 200);
          const csp = page.headers.get('content-security-policy') ?? '';
          assert.match(csp, /frame-ancestors 'none'/);
          assert.match(csp, /default-src 'none'/);
          assert.doesNotMatch(csp, /script-src|unsafe-inline/);
          assert.equal(page.headers.get('referrer-policy'), 'no-referrer', 'the token never leaks in a Referer');
          assert.equal(page.headers.get('cache-control'), 'no-store');
          const text = page.text;
          assert.doesNotMatch(text, /<script/i);
          for (const shown of [
            'Slovenian lakes without the crowds', // the sales page's headline
            'Preview of the working copy',
            'Lakes and gorges', // a chapter
            'Morning: Vintgar Gorge', // its page
            'Book the 8:00 slot in summer.',
            'Park at the upper lot and walk down.',
            'Lake Bled',
            'A second paragraph buyers read inside.', // a spot's whole description
            'Bled at dawn', // an itinerary's day
            'Overnight: Koča na Planini pri Jezeru',
            'Seven Lakes Valley from Planina Blato', // a hike
            'aria-label="Track of the hike"',
            'Hut above a small lake', // a place
            'Triglav National Park', // an area
            'Vehicles need a permit to drive up to Vogel', // its rule
            'Parking at Pokljuka: 10 EUR per day', // its fee
            'Photo: Tina Vrh', // a page photo's credit
            'Photo: Eva Zupan', // a spot photo's credit
            'The boardwalk at eight',
          ]) {
            assert.ok(text.includes(shown), `the preview shows ${JSON.stringify(shown)}`);
          }
          assert.ok(!text.includes('Phone call with the hut keeper'), 'research sources stay out, as in a release');
        } finally {
          await writer.close();
        }
      });
    }

    it('shows the next publish, not the last one: a change after going on sale is in the preview only', async () => {
      await putOnSale(h, guide.productId);
      assertOk(await api.call('update_spot', { spotId: guide.spotIds.bohinj, name: 'Lake Bohinj at first light' }));
      const live = await open(guide.salesPageUrl);
      assert.equal(live.status, 200);
      const preview = await alice.get(`/studio/guides/${guide.productId}/preview`);
      assert.equal(preview.status, 200);
      assert.ok(preview.text.includes('Lake Bohinj at first light'), 'the preview has the change');
      assert.ok(!live.text.includes('Lake Bohinj at first light'), 'buyers do not, until it is published');
      assert.ok(live.text.includes('Lake Bohinj'));
    });

    it('a link stops working after an hour', async () => {
      const { url } = (await api.call('create_preview_link', { productId: guide.productId })).body as { url: string };
      assert.equal((await open(url)).status, 200);
      h.clock.advance(60 * 60_000 + 1);
      const gone = await open(url);
      assert.equal(gone.status, 410);
      assert.match(gone.text, /expired/);
      assert.equal((await open(`${h.origin}/studio/preview?token=${'x'.repeat(43)}`)).status, 410, 'a made-up token');
      assert.equal((await open(`${h.origin}/studio/preview`)).status, 410, 'no token');
    });

    it("another creator's guide has no preview for Bob: not by the operation, not in the studio", async () => {
      for (const transport of transports) {
        const bob = apiFor(h, transport, h.bob.writeKey);
        try {
          assertError(await bob.call('create_preview_link', { productId: guide.productId }), 'not_found');
        } finally {
          await bob.close();
        }
      }
      const bobBrowser = await signedInAs(h, h.bob.creatorId);
      const page = await bobBrowser.get(`/studio/guides/${guide.productId}/preview`);
      assert.equal(page.status, 404);
      assert.ok(!page.text.includes('Lakes and gorges'));
      const signedOut = await open(`${h.origin}/studio/guides/${guide.productId}/preview`);
      assert.equal(signedOut.status, 303, 'no session: sent to sign in');
    });
  });
}
