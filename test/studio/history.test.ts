import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { changesOf, newGuide } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';
import { startServer } from '../helpers/harness.ts';
import { csrfOf, type StudioBrowser, signedInAs } from '../helpers/studio.ts';

const MINUTE = 60 * 1000;

/** The page's sessions, in order, each as its HTML. */
function sessionsIn(text: string): string[] {
  return text.split('<section class="card" data-session>').slice(1);
}

/** The change ids a form of this HTML carries, form by form. */
function formIds(text: string): string[][] {
  return text
    .split('<form method="post" action="')
    .slice(1)
    .filter((form) => form.includes('name="changeId"'))
    .map((form) => [...form.matchAll(/name="changeId" value="([^"]+)"/g)].map((m) => m[1] as string));
}

/** The history entry of one change, as the page shows it. */
function entryOf(text: string, changeId: string): string {
  const at = text.indexOf(`<li data-change-id="${changeId}">`);
  assert.ok(at >= 0, `change ${changeId} is listed`);
  return text.slice(at, text.indexOf('</li>', at));
}

async function spotOf(api: Api, spotId: string): Promise<any> {
  const a = await api.call('get_spot', { spotId });
  assertOk(a);
  return a.body;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`studio: a guide's history (${dialect})`, { skip }, () => {
    let h: Harness;
    let assistant: Api;
    let laptop: Api;
    let alice: StudioBrowser;
    let bob: StudioBrowser;
    before(async () => {
      h = await startServer({ dialect });
      const named = async (name: string) => {
        const { key } = await h.keys.create({ creatorId: h.alice.creatorId, name, scope: 'write', publish: false });
        return apiFor(h, 'rest', key);
      };
      assistant = await named('Trip assistant');
      laptop = await named('Laptop');
      alice = await signedInAs(h, h.alice.creatorId);
      bob = await signedInAs(h, h.bob.creatorId);
    });
    after(async () => {
      await assistant?.close();
      await laptop?.close();
      await h?.close();
    });

    /**
     * Two sessions of the assistant, 31 minutes apart, then the laptop 5 minutes later: a pause
     * splits a writer's session, and another writer starts one of its own.
     */
    async function sessionsGuide() {
      const productId = await newGuide(assistant, 'Lisbon in a weekend');
      const cathedral = (await assistant.call('create_spot', { productId, name: 'Lisbon Cathedral' })).body.spotId;
      h.clock.advance(2 * MINUTE);
      assertOk(await assistant.call('update_spot', { spotId: cathedral, description: 'The oldest church in town.' }));
      h.clock.advance(31 * MINUTE);
      const monastery = (await assistant.call('create_spot', { productId, name: 'Jerónimos Monastery' })).body.spotId;
      h.clock.advance(5 * MINUTE);
      const tower = (await laptop.call('create_spot', { productId, name: 'Belém Tower' })).body.spotId;
      const changes = await changesOf(assistant, productId);
      assert.equal(changes.length, 4);
      return { productId, cathedral, tower, monastery, changes };
    }

    const historyOf = (productId: string) => `/studio/guides/${productId}/history`;

    /** Alice sends the confirm step's form, as its "Yes, undo" button does, with a token of the History page. */
    async function confirmUndo(productId: string, changeId: string) {
      const page = await alice.get(historyOf(productId));
      return alice.post(`${historyOf(productId)}/undo`, { _csrf: csrfOf(page.text), changeId, confirm: 'yes' });
    }

    it('lists the changes newest first, grouped by session of the same writer, with who and what in words', async () => {
      const { productId, changes } = await sessionsGuide();
      const guides = await alice.get('/studio/guides');
      assert.ok(guides.text.includes(`href="${historyOf(productId)}"`), 'the guides page links to the history');

      const page = await alice.get(historyOf(productId));
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>History of Lisbon in a weekend<\/h1>/);
      const sessions = sessionsIn(page.text);
      assert.equal(
        sessions.length,
        3,
        'the 31-minute pause splits the assistant in two sessions, the laptop has its own',
      );
      assert.match(sessions[0] as string, /Laptop \(API key\)[\s\S]*1 change[\s\S]*Created spot Belém Tower/);
      assert.match(
        sessions[1] as string,
        /Trip assistant \(API key\)[\s\S]*1 change[\s\S]*Created spot Jerónimos Monastery/,
      );
      assert.match(sessions[2] as string, /Trip assistant \(API key\)[\s\S]*2 changes/);
      const last = sessions[2] as string;
      assert.ok(
        last.indexOf('Updated spot Lisbon Cathedral') < last.indexOf('Created spot Lisbon Cathedral'),
        'newest first within a session',
      );
      // Each change has its Undo; the session of two has one more, for both.
      assert.deepEqual(formIds(last), [
        [changes[2].changeId, changes[3].changeId],
        [changes[2].changeId],
        [changes[3].changeId],
      ]);
      assert.deepEqual(
        formIds(sessions[0] as string),
        [[changes[0].changeId]],
        'a session of one has no second button',
      );
    });

    it('pages the changes as list_changes does, the next page behind a link', async () => {
      const productId = await newGuide(assistant, 'Many changes');
      for (let i = 0; i < 52; i++) {
        assertOk(await assistant.call('create_spot', { productId, name: `Spot ${i}` }), 201);
      }
      const first = await alice.get(historyOf(productId));
      const next = /href="([^"]+\?cursor=[^"]+)" rel="next"/.exec(first.text)?.[1];
      assert.ok(next, 'a link to the older changes');
      assert.match(first.text, /Created spot Spot 51/);
      assert.doesNotMatch(first.text, /Created spot Spot 1</);
      const second = await alice.get(next.replaceAll('&amp;', '&'));
      assert.equal(second.status, 200);
      assert.match(second.text, /Created spot Spot 1</);
      assert.match(second.text, /Created spot Spot 0</);
      assert.doesNotMatch(second.text, /rel="next"/);
      // A cursor this page did not give starts from the newest.
      const forged = await alice.get(`${historyOf(productId)}?cursor=bm90LWEtY3Vyc29y`);
      assert.equal(forged.status, 303);
    });

    it('undoes one change after a confirm step, recorded in the history as the studio', async () => {
      const { productId, tower, changes } = await sessionsGuide();
      const page = await alice.get(historyOf(productId));
      const asked = await alice.post(`${historyOf(productId)}/undo`, {
        _csrf: csrfOf(page.text),
        changeId: changes[0].changeId,
      });
      assert.equal(asked.status, 200);
      assert.match(asked.text, /Undo this change\?/);
      assert.match(asked.text, /Created spot Belém Tower/);
      assert.deepEqual(formIds(asked.text), [[changes[0].changeId]]);
      assert.match(asked.text, /name="confirm" value="yes"/);
      assertOk(await assistant.call('get_spot', { spotId: tower })); // asking undoes nothing

      const done = await alice.post(`${historyOf(productId)}/undo`, {
        _csrf: csrfOf(asked.text),
        changeId: changes[0].changeId,
        confirm: 'yes',
      });
      assert.equal(done.status, 303);
      assertError(await assistant.call('get_spot', { spotId: tower }), 'not_found');
      const [undo, undone] = await changesOf(assistant, productId);
      assert.equal(undo.operation, 'undo_changes');
      assert.deepEqual(undo.by, { kind: 'studio', name: 'the studio' });
      assert.equal(undone.undoneBy, undo.changeId);

      const after = await alice.get(done.location as string);
      assert.match(after.text, /Undone\. The undo is a change too/);
      assert.match(sessionsIn(after.text)[0] as string, /You, in the studio[\s\S]*Undid changes: spot Belém Tower/);
      assert.match(entryOf(after.text, changes[0].changeId), /Undone already/);
    });

    it('undoes a whole session at once', async () => {
      const { productId, cathedral, tower, changes } = await sessionsGuide();
      const page = await alice.get(historyOf(productId));
      const [group] = formIds(sessionsIn(page.text)[2] as string);
      assert.deepEqual(group, [changes[2].changeId, changes[3].changeId]);
      const asked = await alice.post(`${historyOf(productId)}/undo`, {
        _csrf: csrfOf(page.text),
        changeId: group as string[],
      });
      assert.equal(asked.status, 200);
      assert.match(asked.text, /Undo these 2 changes\?/);
      assert.deepEqual(formIds(asked.text), [group]);
      const done = await alice.post(`${historyOf(productId)}/undo`, {
        _csrf: csrfOf(asked.text),
        changeId: group as string[],
        confirm: 'yes',
      });
      assert.equal(done.status, 303);
      assertError(await assistant.call('get_spot', { spotId: cathedral }), 'not_found');
      assert.equal((await spotOf(assistant, tower)).name, 'Belém Tower', 'the other sessions stand');
      const [undo] = await changesOf(assistant, productId);
      assert.deepEqual(undo.by, { kind: 'studio', name: 'the studio' });
      const listed = await changesOf(assistant, productId);
      for (const id of group as string[]) {
        assert.equal(listed.find((c) => c.changeId === id).undoneBy, undo.changeId);
      }
    });

    it('refuses an undo posted without the form token or with a wrong one, and changes nothing', async () => {
      const { productId, tower, changes } = await sessionsGuide();
      const page = await alice.get(historyOf(productId));
      const token = csrfOf(page.text);
      const fields = { changeId: changes[0].changeId, confirm: 'yes' };
      const without = await alice.post(`${historyOf(productId)}/undo`, fields);
      assert.equal(without.status, 403);
      const wrong = await alice.post(`${historyOf(productId)}/undo`, { ...fields, _csrf: `${token.slice(0, -2)}xx` });
      assert.equal(wrong.status, 403);
      // Another site's page holding a good token is refused by the origin check.
      const crossSite = await alice.post(
        `${historyOf(productId)}/undo`,
        { ...fields, _csrf: token },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      );
      assert.equal(crossSite.status, 403);
      assert.equal((await spotOf(assistant, tower)).name, 'Belém Tower');
      assert.deepEqual(await changesOf(assistant, productId), changes, 'no change recorded, none undone');
    });

    it("answers 404 for another creator's guide and changes, and undoes nothing of them", async () => {
      const { productId, tower, changes } = await sessionsGuide();
      assert.equal((await bob.get(historyOf(productId))).status, 404);
      const bobPage = await bob.get('/studio/guides');
      for (const confirm of ['', 'yes']) {
        const stranger = await bob.post(`${historyOf(productId)}/undo`, {
          _csrf: csrfOf(bobPage.text),
          changeId: changes[0].changeId,
          confirm,
        });
        assert.equal(stranger.status, 404);
        assert.doesNotMatch(stranger.text, /Belém Tower/, 'the confirm step shows nothing of it either');
      }
      // Alice's change ids through Bob's own guide: as unknown as made-up ones.
      const bobApi = apiFor(h, 'rest', h.bob.writeKey);
      try {
        const bobGuide = await newGuide(bobApi, 'Porto');
        assertOk(await bobApi.call('create_spot', { productId: bobGuide, name: 'Ribeira' }), 201);
        const [bobChange] = await changesOf(bobApi, bobGuide);
        for (const changeId of [[changes[0].changeId], [bobChange.changeId, changes[0].changeId]]) {
          for (const confirm of ['', 'yes']) {
            const answer = await bob.post(`${historyOf(bobGuide)}/undo`, {
              _csrf: csrfOf(bobPage.text),
              changeId,
              confirm,
            });
            assert.equal(answer.status, 404);
            assert.match(answer.text, /No such change in this guide/);
          }
        }
        assert.equal((await changesOf(bobApi, bobGuide)).length, 1, "Bob's own change stands too");
      } finally {
        await bobApi.close();
      }
      assert.equal((await spotOf(assistant, tower)).name, 'Belém Tower');
      assert.deepEqual(await changesOf(assistant, productId), changes);
    });

    it('names the later changes that block an undo (409) and offers to undo them together', async () => {
      const { productId, cathedral, changes } = await sessionsGuide();
      h.clock.advance(MINUTE);
      assertOk(await laptop.call('update_spot', { spotId: cathedral, name: 'Sé de Lisboa' }));
      const [later] = await changesOf(assistant, productId);
      const refused = await confirmUndo(productId, changes[2].changeId);
      assert.equal(refused.status, 409);
      assert.match(refused.text, /Later changes touched the same records/);
      assert.match(refused.text, /Undoing without them would silently take them back too, so nothing was undone/);
      assert.match(entryOf(refused.text, later.changeId), /Updated spot Sé de Lisboa/);
      assert.deepEqual(formIds(refused.text), [[later.changeId, changes[2].changeId]]);
      assert.match(refused.text, /Undo them all together/);
      assert.equal((await spotOf(assistant, cathedral)).description, 'The oldest church in town.', 'nothing undone');

      const together = await alice.post(`${historyOf(productId)}/undo`, {
        _csrf: csrfOf(refused.text),
        changeId: [later.changeId, changes[2].changeId],
        confirm: 'yes',
      });
      assert.equal(together.status, 303);
      const spot = await spotOf(assistant, cathedral);
      assert.equal(spot.name, 'Lisbon Cathedral');
      assert.equal(spot.description ?? null, null);
    });

    it('offers no undo together when a later change that blocks it deleted records', async () => {
      const { productId, cathedral, changes } = await sessionsGuide();
      assertOk(await laptop.call('delete_spot', { spotId: cathedral }));
      const [deletion] = await changesOf(assistant, productId);
      const refused = await confirmUndo(productId, changes[2].changeId);
      assert.equal(refused.status, 409);
      assert.match(entryOf(refused.text, deletion.changeId), /Deleted spot Lisbon Cathedral/);
      assert.match(refused.text, /deleting is permanent, so what you chose cannot be undone any more/);
      assert.deepEqual(formIds(refused.text), [], 'no button that could only be refused');
    });

    it('says why a change that deleted records cannot be undone, and offers no Undo for it', async () => {
      const { productId, tower } = await sessionsGuide();
      assertOk(await laptop.call('delete_spot', { spotId: tower }));
      const [deletion] = await changesOf(assistant, productId);
      assert.equal(deletion.undoable, false);
      const page = await alice.get(historyOf(productId));
      const entry = entryOf(page.text, deletion.changeId);
      assert.match(entry, /Deleted spot Belém Tower/, 'named from the state the history kept');
      assert.match(entry, /deleting is permanent: it cannot be undone/);
      assert.doesNotMatch(entry, /<form/);
      // Posted anyway (a page open from before), it is refused in words.
      const refused = await alice.post(`${historyOf(productId)}/undo`, {
        _csrf: csrfOf(page.text),
        changeId: deletion.changeId,
        confirm: 'yes',
      });
      assert.equal(refused.status, 409);
      assert.match(refused.text, /deleting is permanent/);
    });
  });
}
