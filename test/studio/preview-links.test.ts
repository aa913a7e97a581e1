import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { authorizeThroughStudio } from '../helpers/oauth-client.ts';
import { csrfOf, type StudioBrowser, signedInAs } from '../helpers/studio.ts';

/** The status of a preview link: 200 while it works, 410 once it ended. */
const statusOf = async (url: string) => (await fetch(url, { redirect: 'manual' })).status;

/** A link made through `api`, checked to work: its URL. */
async function makeLink(api: Api, productId: string): Promise<string> {
  const answer = await api.call('create_preview_link', { productId });
  assertOk(answer);
  const url = answer.body.url as string;
  assert.equal(await statusOf(url), 200, 'a new link works');
  return url;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`preview links end with what made them (${dialect})`, { skip }, () => {
    let h: Harness;
    let alice: StudioBrowser;
    before(async () => {
      h = await startServer({ dialect });
      alice = await signedInAs(h, h.alice.creatorId);
    });
    after(async () => {
      await h?.close();
    });

    /** A write key of Alice's made in the studio, as she would make one for an assistant. */
    async function studioKey(name: string): Promise<{ key: string; keyId: string }> {
      const made = await alice.submit('/studio/keys', '/studio/keys', { name, scope: 'write', expires: 'never' });
      assert.equal(made.status, 201);
      const key = /data-secret>([^<]+)</.exec(made.text)?.[1] as string;
      const keyId = (await h.keys.list(h.alice.creatorId)).find((k) => k.name === name)?.keyId as string;
      return { key, keyId };
    }

    for (const t of transports) {
      it(`${t}: a read key cannot make one; write can, and revoking its key ends it`, async () => {
        const productId = await newGuide(apiFor(h, 'rest', h.alice.writeKey), `Revoked key over ${t}`);
        const reader = apiFor(h, t, h.alice.readKey);
        try {
          assertError(await reader.call('create_preview_link', { productId }), 'api_scope_required');
        } finally {
          await reader.close();
        }
        const { key, keyId } = await studioKey(`Previewer over ${t}`);
        const writer = apiFor(h, t, key);
        let url: string;
        try {
          url = await makeLink(writer, productId);
        } finally {
          await writer.close();
        }
        const listed = await alice.get('/studio/guides');
        assert.match(listed.text, new RegExp(`Made by the key “Previewer over ${t}”`));
        const keys = await alice.get('/studio/keys');
        const revoked = await alice.post(`/studio/keys/${keyId}/revoke`, { _csrf: csrfOf(keys.text) });
        assert.equal(revoked.status, 303);
        assert.equal(await statusOf(url), 410, 'the key is revoked: its links end');
        assert.doesNotMatch((await alice.get('/studio/guides')).text, /Previewer over/);
      });

      it(`${t}: the studio lists a link and ends it; another creator cannot`, async () => {
        const api = apiFor(h, t, h.alice.writeKey);
        try {
          const productId = await newGuide(api, `Ended in the studio over ${t}`);
          const url = await makeLink(api, productId);
          const page = await alice.get('/studio/guides');
          const card = page.text.slice(page.text.indexOf(`data-guide-id="${productId}"`));
          const linkId = /data-link-id="([^"]+)"/.exec(card)?.[1] as string;
          assert.ok(linkId, 'the guide card lists the link');
          const action = `/studio/guides/${productId}/preview-links/${linkId}/end`;

          const bob = await signedInAs(h, h.bob.creatorId);
          const bobPage = await bob.get('/studio/guides');
          assert.ok(!bobPage.text.includes(linkId), "Bob does not see Alice's link");
          assert.equal((await bob.post(action, { _csrf: csrfOf(bobPage.text) })).status, 404);
          assert.equal(await statusOf(url), 200, "Bob's attempt ended nothing");
          assert.equal((await alice.post(action, {})).status, 403, 'no form token, no end');
          assert.equal(await statusOf(url), 200);

          const ended = await alice.post(action, { _csrf: csrfOf(page.text) });
          assert.equal(ended.status, 303);
          assert.equal(ended.location, '/studio/guides?done=link-ended');
          assert.equal(await statusOf(url), 410);
          assert.ok(!(await alice.get('/studio/guides')).text.includes(linkId), 'no longer listed');
        } finally {
          await api.close();
        }
      });

      it(`${t}: archiving the guide ends its links, and restoring it does not bring them back`, async () => {
        const api = apiFor(h, t, h.alice.writeKey);
        try {
          const productId = await newGuide(api, `Archived over ${t}`);
          const url = await makeLink(api, productId);
          const page = await alice.get('/studio/guides');
          const status = `/studio/guides/${productId}/status`;
          assert.equal((await alice.post(status, { _csrf: csrfOf(page.text), to: 'archived' })).status, 303);
          assert.equal(await statusOf(url), 410);
          assert.equal((await alice.post(status, { _csrf: csrfOf(page.text), to: 'draft' })).status, 303);
          assert.equal(await statusOf(url), 410, 'still ended after the guide is restored');
          assert.equal(await statusOf(await makeLink(api, productId)), 200, 'a new link works again');
        } finally {
          await api.close();
        }
      });
    }

    it('a link made by an assistant ends when the assistant is disconnected', async () => {
      const productId = await newGuide(apiFor(h, 'rest', h.alice.writeKey), 'Disconnected assistant');
      const { accessToken } = await authorizeThroughStudio(h.origin, alice, {
        clientName: 'Previewing assistant (test)',
        resource: h.baseUrl,
      });
      const assistant = apiFor(h, 'rest', accessToken);
      const url = await makeLink(assistant, productId);
      const guides = await alice.get('/studio/guides');
      assert.match(guides.text, /Made by the assistant “Previewing assistant \(test\)”/);
      const page = await alice.get('/studio/assistants');
      const grantId = /data-grant-id="([^"]+)"/.exec(page.text)?.[1] as string;
      assert.equal(
        (await alice.post(`/studio/assistants/${grantId}/revoke`, { _csrf: csrfOf(page.text) })).status,
        303,
      );
      assert.equal(await statusOf(url), 410);
    });
  });
}
