import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { type Api, apiFor } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { changesOf, newGuide, recordPurchase } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';
import { startServer } from '../helpers/harness.ts';
import { putOnSale, saleGuide } from '../helpers/sale-guide.ts';
import { csrfOf, type StudioBrowser, signedInAs } from '../helpers/studio.ts';
import { wholeGuide } from '../helpers/whole-guide.ts';

/**
 * The releases on a guide's History page (issue 29): listed with who published them and what they
 * held, each with its differences and a Restore that is confirmed first and runs restore_release as
 * the studio, as one change the changes section undoes.
 */

const historyOf = (productId: string) => `/studio/guides/${productId}/history`;
const releaseOf = (productId: string, release: number | string) => `${historyOf(productId)}/releases/${release}`;

/** The releases section's cards, newest first, each as its HTML. */
function releaseCards(text: string): string[] {
  const section = text.slice(text.indexOf('data-section="releases"'));
  return section.split('<section class="card" data-release=').slice(1);
}

/** The row of the record with this id in a differences table. */
function rowOf(text: string, id: string): string {
  const at = text.indexOf(`<tr data-record-id="${id}">`);
  assert.ok(at >= 0, `record ${id} is listed`);
  return text.slice(at, text.indexOf('</tr>', at));
}

for (const { dialect, skip } of await testDialects()) {
  describe(`studio: a guide's releases on its History page (${dialect})`, { skip }, () => {
    let h: Harness;
    let assistant: Api;
    let laptop: Api;
    let alice: StudioBrowser;
    let bob: StudioBrowser;
    before(async () => {
      h = await startServer({ dialect });
      const named = async (name: string, publish: boolean) => {
        const { key } = await h.keys.create({ creatorId: h.alice.creatorId, name, scope: 'write', publish });
        return apiFor(h, 'rest', key);
      };
      assistant = await named('Trip assistant', false);
      laptop = await named('Laptop', true);
      alice = await signedInAs(h, h.alice.creatorId);
      bob = await signedInAs(h, h.bob.creatorId);
    });
    after(async () => {
      await assistant?.close();
      await laptop?.close();
      await h?.close();
    });

    /**
     * Release 1 (the studio puts the guide on sale: three lakes), release 2 (the laptop publishes a
     * waterfall and a renamed lake), then work not yet published: a spot deleted, one added, one edited.
     */
    async function releasesGuide(name: string) {
      const guide = await saleGuide(h, assistant, name);
      const { productId, spotIds } = guide;
      await putOnSale(h, productId);
      const savica = await assistant.call('create_spot', { productId, name: 'Savica waterfall' });
      assertOk(savica, 201);
      assertOk(await assistant.call('update_spot', { spotId: spotIds.bohinj, name: 'Lake Bohinj, east shore' }));
      assertOk(await laptop.call('publish_changes', { productId }));
      const atRelease2 = await wholeGuide(h, productId);
      assertOk(await assistant.call('delete_spot', { spotId: spotIds.vintgar }));
      const vogel = await assistant.call('create_spot', { productId, name: 'Vogel cable car' });
      assertOk(vogel, 201);
      assertOk(await assistant.call('update_spot', { spotId: savica.body.spotId, description: 'Stairs, 20 minutes.' }));
      const ids = { savica: savica.body.spotId, vogel: vogel.body.spotId, vintgar: spotIds.vintgar as string };
      return { productId, ids, atRelease2 };
    }

    /** Runs `work` while release `number` has no working image, as a release published before images were kept. */
    async function withoutImage(productId: string, number: number, work: () => Promise<void>) {
      const { db } = h.store;
      const release = await db
        .selectFrom('releases')
        .select('id')
        .where('guide_id', '=', productId)
        .where('number', '=', number)
        .executeTakeFirstOrThrow();
      const image = await db
        .selectFrom('release_images')
        .selectAll()
        .where('release_id', '=', release.id)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('release_images').where('release_id', '=', release.id).execute();
      try {
        await work();
      } finally {
        await db.insertInto('release_images').values(image).execute();
      }
    }

    /** Alice's restore, as the confirm step's "Yes, restore" button sends it, with a token of her History page. */
    async function confirmRestore(productId: string, release: number) {
      const page = await alice.get(historyOf(productId));
      return alice.post(`${releaseOf(productId, release)}/restore`, { _csrf: csrfOf(page.text), confirm: 'yes' });
    }

    it('lists the releases newest first, with who published them, what they held and whether they can be restored', async () => {
      const { productId } = await releasesGuide('Lakes listed');
      const page = await alice.get(historyOf(productId));
      assert.equal(page.status, 200);
      assert.match(page.text, /<h2 id="releases-heading">Releases<\/h2>/);
      const cards = releaseCards(page.text);
      assert.equal(cards.length, 2);
      const [second = '', first = ''] = cards;
      assert.match(second, /^"2"[\s\S]*Release 2[\s\S]*by Laptop \(API key\)/);
      assert.match(second, /It held: [^<]*4 spots/);
      assert.match(first, /^"1"[\s\S]*Release 1[\s\S]*by You, in the studio/);
      assert.match(first, /It held: [^<]*3 spots/);
      for (const [card, n] of [
        [second, 2],
        [first, 1],
      ] as const) {
        assert.ok(card.includes(`href="${releaseOf(productId, n)}"`), `release ${n} links to its differences`);
        assert.ok(card.includes(`action="${releaseOf(productId, n)}/restore"`), `release ${n} has a Restore button`);
      }

      await withoutImage(productId, 1, async () => {
        const old = releaseCards((await alice.get(historyOf(productId))).text)[1] as string;
        assert.match(old, /It cannot be restored: it was published before the service kept everything a guide holds/);
        assert.doesNotMatch(old, /<form/, 'no Restore button that could only be refused');
        assert.ok(old.includes(`href="${releaseOf(productId, 1)}"`), 'its differences can still be read');
      });
    });

    it('pages the releases as list_releases does, the older ones behind a link', async () => {
      const { productId, spotIds } = await saleGuide(h, assistant, 'Many releases');
      await putOnSale(h, productId);
      for (let visit = 2; visit <= 21; visit++) {
        assertOk(await assistant.call('update_spot', { spotId: spotIds.bled, description: `Visit ${visit}.` }));
        assertOk(await laptop.call('publish_changes', { productId }));
      }
      const first = await alice.get(historyOf(productId));
      const cards = releaseCards(first.text);
      assert.equal(cards.length, 20);
      assert.match(cards[0] as string, /^"21"/);
      const next = /href="([^"]+\?releases=[^"]+)" rel="next"/.exec(first.text)?.[1];
      assert.ok(next, 'a link to the older releases');
      const second = await alice.get(next.replaceAll('&amp;', '&'));
      assert.equal(second.status, 200);
      assert.deepEqual(
        releaseCards(second.text).map((c) => c.slice(0, 4)),
        ['"1">'],
      );
      assert.match(second.text, /Newest releases/);
      const forged = await alice.get(`${historyOf(productId)}?releases=bm90LWEtY3Vyc29y`);
      assert.equal(forged.status, 303);
      assert.equal(forged.location, historyOf(productId));
    });

    it('shows how the working copy differs from a release, by kind and by name, paged', async () => {
      const { productId, ids } = await releasesGuide('Lakes compared');
      const page = await alice.get(releaseOf(productId, 2));
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Release 2 of Lakes compared<\/h1>/);
      assert.match(page.text, /by Laptop \(API key\)/);
      assert.match(page.text, /3 records differ/);
      assert.match(
        page.text,
        /<tr data-kind="spot"><td data-label="Kind">spot<\/td><td[^>]*>1<\/td><td[^>]*>1<\/td><td[^>]*>1<\/td><\/tr>/,
      );
      assert.match(rowOf(page.text, ids.vogel), /Vogel cable car[\s\S]*Added since \(a restore removes it\)/);
      assert.match(rowOf(page.text, ids.savica), /Savica waterfall[\s\S]*Changed since/);
      assert.match(rowOf(page.text, ids.vintgar), /Vintgar Gorge[\s\S]*Removed since \(a restore brings it back\)/);
      assert.ok(page.text.includes(`action="${releaseOf(productId, 2)}/restore"`), 'a Restore button');
      assert.doesNotMatch(page.text, /rel="next"/);

      // A release from before images were kept: compared as buyers see it, with no Restore.
      await withoutImage(productId, 1, async () => {
        const old = await alice.get(releaseOf(productId, 1));
        assert.equal(old.status, 200);
        assert.match(old.text, /It cannot be restored/);
        assert.match(old.text, /Compared as buyers see them/);
        assert.match(rowOf(old.text, ids.savica), /Savica waterfall[\s\S]*Added since/);
        assert.doesNotMatch(old.text, /action="[^"]+\/restore"/);
      });

      // More than a page of differences: the rest behind a link, 100 a page as get_release gives them.
      for (let batch = 0; batch < 5; batch++) {
        const spots = Array.from({ length: 24 }, (_, i) => ({
          spotKey: `s${batch}-${i}`,
          name: `New spot ${batch * 24 + i}`,
          lat: 46,
          lon: 14,
        }));
        assertOk(await assistant.call('upsert_spots', { productId, spots }));
      }
      const first = await alice.get(releaseOf(productId, 2));
      assert.match(first.text, /123 records differ/);
      const next = /href="([^"]+\?cursor=[^"]+)" rel="next"/.exec(first.text)?.[1];
      assert.ok(next, 'a link to more records');
      const second = await alice.get(next.replaceAll('&amp;', '&'));
      assert.equal(second.status, 200);
      const names = (text: string) => [...text.matchAll(/<td data-label="Name">([^<]+)<\/td>/g)].map((m) => m[1]);
      const listed = [...names(first.text), ...names(second.text)];
      assert.equal(names(first.text).length, 100);
      assert.equal(listed.length, 123);
      assert.ok(listed.includes('New spot 119') && listed.includes('New spot 0') && listed.includes('Vintgar Gorge'));
      assert.match(second.text, /First records/);
      const forged = await alice.get(`${releaseOf(productId, 2)}?cursor=bm90LWEtY3Vyc29y`);
      assert.equal(forged.status, 303);
    });

    it('restores a release after a confirm step, as the studio, as one change the changes section undoes', async () => {
      const { productId, ids, atRelease2 } = await releasesGuide('Lakes restored');
      const working = await wholeGuide(h, productId);
      const page = await alice.get(historyOf(productId));
      const asked = await alice.post(`${releaseOf(productId, 2)}/restore`, { _csrf: csrfOf(page.text) });
      assert.equal(asked.status, 200);
      assert.match(asked.text, /Restore release 2\?/);
      assert.match(asked.text, /<tr data-kind="spot">/, 'what differs, by kind');
      assert.match(asked.text, /Buyers see nothing of it until you publish/);
      assert.match(asked.text, /name="confirm" value="yes"/);
      assert.deepEqual(await wholeGuide(h, productId), working, 'asking restores nothing');

      const done = await alice.post(`${releaseOf(productId, 2)}/restore`, {
        _csrf: csrfOf(asked.text),
        confirm: 'yes',
      });
      assert.equal(done.status, 303);
      assert.deepEqual(await wholeGuide(h, productId), atRelease2);
      const [restore] = await changesOf(assistant, productId);
      assert.equal(restore.operation, 'restore_release');
      assert.deepEqual(restore.by, { kind: 'studio', name: 'the studio' });
      assert.equal(restore.undoable, true);
      assert.equal(done.location, `${historyOf(productId)}?restored=2&change=${restore.changeId}`);

      const after = await alice.get(done.location as string);
      assert.match(after.text, /Release 2 restored\. Buyers see it only after your next publish/);
      const notice = after.text.slice(
        after.text.indexOf('data-restored'),
        after.text.indexOf('data-section="changes"'),
      );
      assert.match(notice, /The restore is one change, first under Changes/);
      assert.match(notice, new RegExp(`name="changeId" value="${restore.changeId}"[\\s\\S]*Undo the restore`));
      assert.match(after.text, /You, in the studio[\s\S]*Restored release/);
      assert.match(after.text, new RegExp(`<li data-change-id="${restore.changeId}">`));

      // Its Undo, confirmed as every undo is, gives back the working copy the restore replaced.
      const undone = await alice.post(`${historyOf(productId)}/undo`, {
        _csrf: csrfOf(after.text),
        changeId: restore.changeId,
        confirm: 'yes',
      });
      assert.equal(undone.status, 303);
      assert.deepEqual(await wholeGuide(h, productId), working);
      assert.equal((await assistant.call('get_spot', { spotId: ids.vogel })).body.name, 'Vogel cable car');
      const [undo] = await changesOf(assistant, productId);
      assert.equal(undo.operation, 'undo_changes');
      assert.deepEqual(undo.by, { kind: 'studio', name: 'the studio' });
    });

    it('says when there is nothing to restore, and changes nothing', async () => {
      const { productId } = await releasesGuide('Lakes unchanged');
      assertOk(await laptop.call('publish_changes', { productId }));
      const before = (await changesOf(assistant, productId)).length;
      const page = await alice.get(historyOf(productId));
      const asked = await alice.post(`${releaseOf(productId, 3)}/restore`, { _csrf: csrfOf(page.text) });
      assert.match(asked.text, /Nothing to restore/);
      assert.doesNotMatch(asked.text, /name="confirm"/);
      const done = await confirmRestore(productId, 3);
      assert.equal(done.location, `${historyOf(productId)}?restored=3`);
      assert.match(
        (await alice.get(done.location as string)).text,
        /Nothing to restore: your working copy already held/,
      );
      assert.equal((await changesOf(assistant, productId)).length, before);
    });

    it('refuses in plain words a restore of a sold guide (409) and of a release from before images were kept (400), changing nothing', async () => {
      const { productId } = await releasesGuide('Lakes refused');
      const working = await wholeGuide(h, productId);
      const changes = await changesOf(assistant, productId);
      await recordPurchase(h, productId);
      try {
        const sold = await confirmRestore(productId, 1);
        assert.equal(sold.status, 409);
        assert.match(sold.text, /Release 1 cannot be restored now/);
        assert.match(sold.text, /Someone bought this guide, so its spots cannot be deleted/);
        assert.doesNotMatch(sold.text, /get_release|update_spot/, "in the studio's words, not the API's");
      } finally {
        await h.store.db.deleteFrom('purchases').where('guide_id', '=', productId).execute();
      }
      await withoutImage(productId, 1, async () => {
        const page = await alice.get(historyOf(productId));
        const asked = await alice.post(`${releaseOf(productId, 1)}/restore`, { _csrf: csrfOf(page.text) });
        assert.equal(asked.status, 400);
        assert.match(asked.text, /It cannot be restored: it was published before the service kept everything/);
        const old = await confirmRestore(productId, 1);
        assert.equal(old.status, 400);
        assert.match(old.text, /Release 1 cannot be restored/);
        assert.match(old.text, /published before the service kept everything a guide holds/);
      });
      assert.deepEqual(await wholeGuide(h, productId), working);
      assert.deepEqual(await changesOf(assistant, productId), changes);
    });

    it('refuses a restore posted without the form token, with a wrong one or from another site, and changes nothing', async () => {
      const { productId } = await releasesGuide('Lakes guarded');
      const working = await wholeGuide(h, productId);
      const changes = await changesOf(assistant, productId);
      const token = csrfOf((await alice.get(historyOf(productId))).text);
      const restore = `${releaseOf(productId, 1)}/restore`;
      assert.equal((await alice.post(restore, { confirm: 'yes' })).status, 403);
      assert.equal((await alice.post(restore, { confirm: 'yes', _csrf: `${token.slice(0, -2)}xx` })).status, 403);
      const crossSite = await alice.post(
        restore,
        { confirm: 'yes', _csrf: token },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      );
      assert.equal(crossSite.status, 403);
      assert.deepEqual(await wholeGuide(h, productId), working);
      assert.deepEqual(await changesOf(assistant, productId), changes, 'no change recorded');
      // The same post with the page's token restores: the refusals above were the locks, not the form.
      assert.equal((await alice.post(restore, { confirm: 'yes', _csrf: token })).status, 303);
    });

    it("answers 404 for another creator's guide and for release numbers a guide never had, and restores nothing", async () => {
      const { productId } = await releasesGuide('Lakes of Alice');
      const working = await wholeGuide(h, productId);
      const changes = await changesOf(assistant, productId);
      const bobPage = await bob.get('/studio/guides');
      const bobToken = csrfOf(bobPage.text);
      const stranger = await bob.get(releaseOf(productId, 1));
      assert.equal(stranger.status, 404);
      assert.match(stranger.text, /No such guide of yours/);
      for (const confirm of ['', 'yes']) {
        const post = await bob.post(`${releaseOf(productId, 1)}/restore`, { _csrf: bobToken, confirm });
        assert.equal(post.status, 404);
        assert.match(post.text, /No such guide of yours/);
        assert.doesNotMatch(post.text, /Lakes of Alice|Lake Bled/, 'nothing of it shows');
      }
      // Alice's release numbers through Bob's own guide, which has none: as unknown as made-up ones.
      const bobApi = apiFor(h, 'rest', h.bob.writeKey);
      try {
        const bobGuide = await newGuide(bobApi, 'Porto');
        const own = await bob.get(releaseOf(bobGuide, 1));
        assert.equal(own.status, 404);
        assert.match(own.text, /No such release of this guide/);
        for (const confirm of ['', 'yes']) {
          const post = await bob.post(`${releaseOf(bobGuide, 2)}/restore`, { _csrf: bobToken, confirm });
          assert.equal(post.status, 404);
          assert.match(post.text, /No such release of this guide/);
        }
      } finally {
        await bobApi.close();
      }
      const aliceToken = csrfOf((await alice.get(historyOf(productId))).text);
      for (const release of ['3', '0', 'one']) {
        const missing = await alice.get(releaseOf(productId, release));
        assert.equal(missing.status, 404, release);
        assert.match(missing.text, /No such release of this guide/);
        const post = await alice.post(`${releaseOf(productId, release)}/restore`, {
          _csrf: aliceToken,
          confirm: 'yes',
        });
        assert.equal(post.status, 404, release);
        assert.match(post.text, /No such release of this guide/);
      }
      assert.deepEqual(await wholeGuide(h, productId), working);
      assert.deepEqual(await changesOf(assistant, productId), changes);
    });
  });
}
