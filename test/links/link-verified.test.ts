import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Answer, assertError, assertOk } from '../helpers/answers.ts';
import { type Api, useServer } from '../helpers/api.ts';
import { clientFor, clientLines, withClient } from '../helpers/clients.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { checkerFor, serve } from '../helpers/local-servers.ts';

/** Every page of this site answers 404: what a site that refuses robots looks like to the checker. */
const site = await serve((_req, res) => res.writeHead(404).end());
const linkChecker = checkerFor([site]);
const page = (path: string) => `${site.origin}${path}`;

const brokenLinks = async (api: Api, productId: string): Promise<string[]> => {
  const readiness = await api.call('get_guide_readiness', { productId });
  assertOk(readiness);
  const status = await api.call('get_publish_status', { productId });
  assertOk(status);
  const inReadiness = readiness.body.findings
    .filter((f: { code: string }) => f.code === 'link_broken')
    .map((f: { where: { id: string } }) => f.where.id)
    .sort();
  const inStatus = status.body.warnings.filter((w: { code: string }) => w.code === 'link_broken');
  assert.equal(inStatus.length, inReadiness.length, 'publish status warns of the same links');
  return inReadiness;
};

/** The record of an answer that succeeded (200 or 201). */
const ok = (a: Answer) => {
  assert.equal(a.ok, true, JSON.stringify(a.body));
  return a.body;
};

/**
 * set_link_verified over REST and both MCP client lines: several links in one call, the single
 * form as before, and the mark clearing link_broken in readiness and publish status until the
 * link's address changes or the mark is taken back.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`set_link_verified clears link_broken (${dialect})`, { skip }, () => {
    const suite = useServer({
      dialect,
      services: { linkChecker },
      env: { RATE_LIMIT_LINK_CHECKS_PER_HOUR: '100000' },
    });

    /** A guide whose spot and place hold three links the checker finds broken. */
    async function brokenGuide(api: Api, name: string) {
      const productId = await newGuide(api, name);
      const links = [page(`/${name}/a`), page(`/${name}/b`), page(`/${name}/c`)];
      const spot = ok(
        await api.call('create_spot', {
          productId,
          name: 'Lookout',
          links: [
            { kind: 'official', url: links[0] },
            { kind: 'tickets', url: links[1] },
          ],
        }),
      );
      ok(
        await api.call('create_facility', {
          productId,
          kind: 'food',
          name: 'Cafe',
          website: links[2],
          lat: 46,
          lon: 14,
        }),
      );
      const run = ok(await api.call('check_links', { productId }));
      assert.equal(run.counts.broken, 3);
      assert.deepEqual(await brokenLinks(api, productId), [...links].sort());
      return { productId, spotId: spot.spotId as string, links: links as [string, string, string] };
    }

    for (const line of clientLines) {
      describe(`through ${line}`, () => {
        it('several links in one call: each marked once, gone from readiness and publish status', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (a) => {
            const { productId, links } = await brokenGuide(a, `several-${line}`);
            const marked = ok(
              await a.call('set_link_verified', { productId, urls: [links[2], links[0], links[2]], verified: true }),
            );
            const answer = { ok: true, productId, marked: 2, verified: true, verifiedAt: suite.h.clock.now() };
            assert.deepEqual(marked, answer, 'compact: the links sent are counted, not echoed');
            const full = ok(
              await a.call('set_link_verified', {
                productId,
                urls: [links[2], links[0], links[2]],
                verified: true,
                answer: 'full',
              }),
            );
            assert.deepEqual(full, { ...answer, urls: [links[2], links[0]] });
            assert.deepEqual(await brokenLinks(a, productId), [links[1]]);
            const report = ok(await a.call('get_link_report', { productId }));
            const verified = report.links
              .filter((l: { verified: boolean }) => l.verified)
              .map((l: { url: string }) => l.url);
            assert.deepEqual(verified.sort(), [links[0], links[2]].sort());

            // A later check finds them broken again; the person's word still stands.
            ok(await a.call('check_links', { productId }));
            assert.deepEqual(await brokenLinks(a, productId), [links[1]]);

            // The single form answers the link it marked.
            // (a plain http link is warned of, as in every write that names one)
            const { warnings: _, ...one } = ok(
              await a.call('set_link_verified', { productId, url: links[1], verified: true }),
            );
            assert.deepEqual(one, {
              ok: true,
              productId,
              url: links[1],
              marked: 1,
              verified: true,
              verifiedAt: suite.h.clock.now(),
            });
            assert.deepEqual(await brokenLinks(a, productId), []);
          });
        });

        it('the mark lasts until it is taken back or the address changes', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (a) => {
            const { productId, spotId, links } = await brokenGuide(a, `lasts-${line}`);
            ok(await a.call('set_link_verified', { productId, urls: links, verified: true }));
            assert.deepEqual(await brokenLinks(a, productId), []);

            const back = ok(await a.call('set_link_verified', { productId, urls: [links[0]], verified: false }));
            assert.equal(back.verifiedAt, null);
            assert.deepEqual(await brokenLinks(a, productId), [links[0]], 'the mark taken back, the finding returns');

            // The creator gives another address: a new link, never verified, broken at its first check.
            const moved = page(`/lasts-${line}/moved`);
            ok(
              await a.call('update_spot', {
                spotId,
                links: [
                  { kind: 'official', url: links[0] },
                  { kind: 'tickets', url: moved },
                ],
              }),
            );
            assert.deepEqual(await brokenLinks(a, productId), [links[0]], 'the old address is no longer held');
            ok(await a.call('check_links', { productId, urls: [moved] }));
            assert.deepEqual(await brokenLinks(a, productId), [links[0], moved].sort());
          });
        });

        it('refuses a link the guide does not hold by its place in urls, and marks none of them', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (a) => {
            const { productId, links } = await brokenGuide(a, `refused-${line}`);
            assertError(
              await a.call('set_link_verified', {
                productId,
                urls: [links[0], 'https://not-in.example/'],
                verified: true,
              }),
              'invalid_request',
              'urls[1]',
            );
            assert.equal((await brokenLinks(a, productId)).length, 3, 'nothing was marked');
            assertError(
              await a.call('set_link_verified', { productId, url: links[0], urls: [links[1]], verified: true }),
              'invalid_request',
              'urls',
            );
            assertError(await a.call('set_link_verified', { productId, verified: true }), 'invalid_argument', 'url');
            assertError(
              await a.call('set_link_verified', { productId, urls: [], verified: true }),
              'invalid_request',
              'urls',
            );
            const tooMany = Array.from({ length: 201 }, (_, i) => page(`/x/${i}`));
            assertError(
              await a.call('set_link_verified', { productId, urls: tooMany, verified: true }),
              'invalid_request',
              'urls',
            );
            assert.equal((await brokenLinks(a, productId)).length, 3);
          });
        });
      });
    }

    it("another creator's guide answers not_found and is left unmarked", async () => {
      const alice = suite.apis.rest;
      const { productId, links } = await brokenGuide(alice, 'theirs');
      const bob = clientFor(suite.h, 'rest', suite.h.bob.writeKey);
      assertError(await bob.call('set_link_verified', { productId, urls: links, verified: true }), 'not_found');
      assert.equal((await brokenLinks(alice, productId)).length, 3);
    });
  });
}
