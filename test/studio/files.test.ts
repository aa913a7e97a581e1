import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { apiFor, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';
import { authorizeThroughStudio } from '../helpers/oauth-client.ts';
import { csrfOf, type StudioBrowser, signedInAs } from '../helpers/studio.ts';

/** The import tests' real files. */
const fixture = (name: string) => readFileSync(new URL(`../files/fixtures/${name}`, import.meta.url));

/** The studio's Files page: Import a file (dry run shown, then a confirm) and a Download per format. */

/** Posts the import form as a browser does: multipart, the page's Origin, the browser's cookies. */
async function postFile(browser: StudioBrowser, path: string, fields: Record<string, string>, name: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(fixture(name))]), name);
  const res = await fetch(browser.origin + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: browser.origin,
      'sec-fetch-site': 'same-origin',
    },
    body: form,
  });
  return { status: res.status, text: await res.text() };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`studio: a guide's files (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    it('imports a KMZ after showing its dry run, and downloads each export format', async () => {
      const { h, apis } = suite;
      const productId = await newGuide(apis.rest, 'Studio files');
      const alice = await signedInAs(h, h.alice.creatorId);
      const files = `/studio/guides/${productId}/files`;
      const page = await alice.get(files);
      assert.equal(page.status, 200, page.text.slice(0, 300));
      const dry = await postFile(alice, `${files}/import`, { _csrf: csrfOf(page.text), format: '' }, 'my-maps.kmz');
      assert.equal(dry.status, 200, dry.text.slice(0, 600));
      assert.match(dry.text, /5 created, 0 updated, 0 unchanged, 1 skipped/);
      assert.match(dry.text, /<li data-skip>Placemark 5[^<]*polygon/i);
      assert.equal((await guideOf(apis.rest, productId)).spotCount, 0, 'the dry run wrote nothing');
      const uploadId = /name="uploadId" value="([^"]+)"/.exec(dry.text)?.[1] as string;
      const done = await alice.post(`${files}/import/confirm`, { _csrf: csrfOf(dry.text), uploadId, format: 'kml' });
      assert.equal(done.status, 303, done.text.slice(0, 300));
      assert.equal((await guideOf(apis.rest, productId)).spotCount, 4);
      for (const format of ['geojson', 'kml', 'gpx', 'archive']) {
        assert.match(page.text, new RegExp(`href="${files}/download/${format}"`));
        const link = await alice.get(`${files}/download/${format}`);
        assert.equal(link.status, 303, link.text.slice(0, 300));
        const file = await fetch(link.location as string);
        assert.equal(file.status, 200, `${format}: ${await file.clone().text()}`);
        assert.match(file.headers.get('content-disposition') ?? '', /^attachment/);
      }
    });

    it('a download address ends with the studio session that asked for it, as with a key or an assistant', async () => {
      const { h, apis } = suite;
      const productId = await newGuide(apis.rest, 'Downloads end with the session');
      const download = async (browser: StudioBrowser) => {
        const link = await browser.get(`/studio/guides/${productId}/files/download/geojson`);
        assert.equal(link.status, 303, link.text.slice(0, 300));
        assert.equal((await fetch(link.location as string)).status, 200, 'a new address downloads');
        return link.location as string;
      };
      const laptop = await signedInAs(h, h.alice.creatorId);
      const phone = await signedInAs(h, h.alice.creatorId);
      const fromLaptop = await download(laptop);
      const fromPhone = await download(phone);
      assert.equal((await laptop.submit('/studio/guides', '/studio/sign-out', {})).status, 303);
      assert.equal((await fetch(fromLaptop)).status, 404, 'its session signed out');
      assert.equal((await fetch(fromPhone)).status, 200, "another session's address still works");
      // The phone's session runs out (idle past its expiry) while its address is still young.
      await h.store.db.updateTable('studio_sessions').set({ expires_at: h.clock.now() }).execute();
      assert.equal((await fetch(fromPhone)).status, 404, 'its session expired');

      const studio = await signedInAs(h, h.alice.creatorId);
      const { accessToken } = await authorizeThroughStudio(h.origin, studio, {
        clientName: 'Exporting assistant (test)',
        resource: h.baseUrl,
      });
      const assistant = apiFor(h, 'rest', accessToken);
      const exported = await assistant.call('export_guide', { productId, format: 'kml' });
      assert.equal((await fetch(exported.body.url)).status, 200);
      const page = await studio.get('/studio/assistants');
      const grantId = /data-grant-id="([^"]+)"/.exec(page.text)?.[1] as string;
      assert.equal(
        (await studio.post(`/studio/assistants/${grantId}/revoke`, { _csrf: csrfOf(page.text) })).status,
        303,
      );
      assert.equal((await fetch(exported.body.url)).status, 404, 'its assistant disconnected');
    });

    it("refuses the import form without its token, and another creator's guide is not found", async () => {
      const { h, apis } = suite;
      const productId = await newGuide(apis.rest, 'Not for others');
      const files = `/studio/guides/${productId}/files`;
      const alice = await signedInAs(h, h.alice.creatorId);
      const forged = await postFile(alice, `${files}/import`, { format: 'kml' }, 'my-maps.kml');
      assert.equal(forged.status, 403, forged.text.slice(0, 300));
      const bob = await signedInAs(h, h.bob.creatorId);
      assert.equal((await bob.get(files)).status, 404);
      assert.equal((await bob.get(`${files}/download/kml`)).status, 404);
      const own = await bob.get('/studio/guides');
      const theirs = await postFile(bob, `${files}/import`, { _csrf: csrfOf(own.text), format: 'kml' }, 'my-maps.kml');
      assert.equal(theirs.status, 404, theirs.text.slice(0, 300));
      const missing = await bob.get('/studio/guides/gd_missing/files');
      assert.equal(missing.status, 404);
      assert.equal((await guideOf(apis.rest, productId)).spotCount, 0);
    });
  });
}
