import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { LinkChecker } from '../../src/resources/links/link-checker.ts';
import { openStore } from '../../src/store.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { assertRefusalHeaders, rest } from '../helpers/http.ts';
import { recordingOpener, serve } from '../helpers/local-servers.ts';

/** One local site with a page of every outcome; a check never leaves 127.0.0.1. */
const site = await serve((req, res) => {
  const path = req.url ?? '/';
  if (path.startsWith('/ok')) res.writeHead(200).end('fine');
  else if (path === '/old') res.writeHead(301, { location: '/new' }).end();
  else if (path === '/new') res.writeHead(200).end('moved here');
  else if (path === '/leak') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
  else res.writeHead(404).end();
});
const at = (path: string) => `${site.origin}${path}`;

const checkClock = new ManualClock('2026-11-23T10:30:00Z');
const opener = recordingOpener();
/** The checker end-to-end tests hand the server: allowed to reach the local site, and only it. */
const linkChecker = new LinkChecker({
  clock: checkClock,
  testOnlyLoopbackPorts: [site.port],
  openSocket: opener.open,
});
after(() => linkChecker.close());

const links = {
  ok: at('/ok'),
  moved: at('/old'),
  gone: at('/gone'),
  leak: at('/leak'),
  private: 'http://10.0.0.1/admin',
};

/** A spot holding one of each; the gone page also on a place, so its problem names two uses. */
async function guideWithLinks(api: Api, name: string): Promise<{ productId: string; spotId: string }> {
  const productId = await newGuide(api, name);
  const spot = await api.call('create_spot', {
    productId,
    name: 'Lookout',
    links: [
      { kind: 'official', url: links.ok },
      { kind: 'website', url: links.moved },
      { kind: 'tickets', url: links.gone },
      { kind: 'other', url: links.leak },
    ],
    sources: [{ url: links.private }],
  });
  assertOk(spot, 201);
  assertOk(await api.call('create_facility', { productId, kind: 'food', name: 'Cafe', website: links.gone }), 201);
  return { productId, spotId: spot.body.spotId };
}

const entryOf = (report: { links: Array<{ url: string }> }, url: string): any =>
  report.links.find((l) => l.url === url);

for (const { dialect, skip } of await testDialects()) {
  describe(`check_links (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect, services: { linkChecker }, env: { RATE_LIMIT_LINK_CHECKS_PER_HOUR: '3' } });

    for (const t of transports) {
      it(`${t}: checks every link, answers a summary and stores each result for the report`, async () => {
        const api = suite.apis[t];
        const { productId, spotId } = await guideWithLinks(api, 'Checked');
        assertOk(await api.call('set_link_verified', { productId, url: links.gone, verified: true }));
        const before = site.requests.length;
        checkClock.set('2026-11-23T10:30:00Z');
        const run = await api.call('check_links', { productId });
        assertOk(run);
        assert.equal(run.body.productId, productId);
        assert.equal(run.body.checked, 5);
        assert.equal(run.body.notChecked, 0);
        assert.deepEqual(run.body.counts, { ok: 1, redirected: 1, broken: 1, blocked: 2, error: 0 });
        const problem = (url: string) => run.body.problems.find((p: { url: string }) => p.url === url);
        assert.deepEqual(
          run.body.problems.map((p: { url: string }) => p.url).toSorted(),
          [links.moved, links.gone, links.leak, links.private].toSorted(),
        );
        assert.deepEqual(problem(links.moved), {
          url: links.moved,
          status: 'redirected',
          httpStatus: 200,
          finalUrl: at('/new'),
          error: null,
          uses: [{ kind: 'spot', id: spotId, name: 'Lookout', field: 'links[1].url' }],
        });
        assert.equal(problem(links.gone).status, 'broken');
        assert.equal(problem(links.gone).httpStatus, 404);
        assert.deepEqual(
          problem(links.gone).uses.map((u: { kind: string }) => u.kind),
          ['spot', 'place'],
        );
        assert.equal(problem(links.leak).status, 'blocked');
        assert.match(problem(links.leak).error, /169\.254\.169\.254 is a cloud metadata address/);
        assert.equal(problem(links.private).status, 'blocked');
        assert.match(problem(links.private).error, /10\.0\.0\.1 is a private network address/);
        // Only the local site was reached: never the private or the metadata address.
        assert.ok(site.requests.length > before);
        assert.deepEqual([...new Set(opener.asked)], ['127.0.0.1']);

        const report = (await api.call('get_link_report', { productId })).body;
        const checkedAt = Date.parse('2026-11-23T10:30:00Z');
        assert.deepEqual(entryOf(report, links.ok).lastCheck, {
          status: 'ok',
          httpStatus: 200,
          finalUrl: links.ok,
          checkedAt,
          error: null,
        });
        assert.deepEqual(entryOf(report, links.moved).lastCheck.finalUrl, at('/new'));
        const gone = entryOf(report, links.gone);
        assert.equal(gone.lastCheck.status, 'broken');
        assert.equal(gone.lastCheck.error, 'The page answered HTTP 404.');
        assert.equal(gone.verified, true, 'a check leaves the verified mark as it was');
        assert.deepEqual(report.counts, { ok: 1, redirected: 1, broken: 1, blocked: 2, error: 0, unchecked: 0 });
        const broken = await api.call('get_link_report', { productId, status: 'broken' });
        assert.deepEqual(
          broken.body.links.map((l: { url: string }) => l.url),
          [links.gone],
        );
      });
    }

    it('urls checks only those; a URL the guide does not hold is refused before anything is fetched', async () => {
      const api = suite.apis.rest;
      const { productId } = await guideWithLinks(api, 'Some');
      let before = site.requests.length;
      const run = await api.call('check_links', { productId, urls: [links.ok, links.ok] });
      assertOk(run);
      assert.equal(run.body.checked, 1);
      assert.deepEqual(run.body.problems, []);
      assert.deepEqual(site.requests.slice(before), [{ method: 'HEAD', url: '/ok' }]);
      const report = (await api.call('get_link_report', { productId })).body;
      assert.equal(report.counts.ok, 1);
      assert.equal(report.counts.unchecked, 4);

      before = site.requests.length;
      const foreign = await api.call('check_links', { productId, urls: [links.ok, at('/ok/elsewhere')] });
      assertError(foreign, 'invalid_request', 'urls[1]');
      assert.equal(site.requests.length, before, 'nothing fetched');
      assertError(await api.call('check_links', { productId, urls: [] }), 'invalid_request', 'urls');
    });

    it('the limit per guide per hour: 429 with retryAfterMs over REST and MCP; other guides keep theirs', async () => {
      const { rest: viaRest, mcp: viaMcp } = suite.apis;
      const productId = await newGuide(viaRest, 'Limited');
      const other = await newGuide(viaRest, 'Other');
      for (let i = 0; i < 3; i++) assertOk(await viaRest.call('check_links', { productId }));
      const over = await rest(suite.h.baseUrl, suite.h.alice.writeKey, 'POST', `/guides/${productId}/links/check`, {});
      assert.equal(over.status, 429);
      assert.equal(over.body.error.code, 'rate_limited');
      assert.ok(over.body.error.retryAfterMs > 0 && over.body.error.retryAfterMs <= 3_600_000);
      assert.match(over.body.error.message, /link checks of this guide this hour/);
      assertRefusalHeaders(over);
      const overMcp = await viaMcp.call('check_links', { productId });
      assertError(overMcp, 'rate_limited');
      assert.ok(overMcp.body.error.retryAfterMs > 0);
      assertOk(await viaMcp.call('check_links', { productId: other }));
      // Another creator calling with this guide's id spends nothing of its owner's budget.
      const bob = apiFor(suite.h, 'rest', suite.h.bob.writeKey);
      const theirs = await newGuide(viaRest, 'Theirs');
      for (let i = 0; i < 3; i++) assertError(await bob.call('check_links', { productId: theirs }), 'not_found');
      assertOk(await viaRest.call('check_links', { productId: theirs }));
    });

    it('a link taken out of the guide leaves the report, and the next check drops its stored result', async () => {
      const api = suite.apis.rest;
      const { productId, spotId } = await guideWithLinks(api, 'Pruned');
      assertOk(await api.call('check_links', { productId, urls: [links.ok] }));
      assertOk(await api.call('update_spot', { spotId, links: [] }));
      let report = (await api.call('get_link_report', { productId })).body;
      assert.equal(entryOf(report, links.ok), undefined);
      assertOk(await api.call('check_links', { productId, urls: [links.gone] }));
      assertOk(await api.call('update_spot', { spotId, links: [{ kind: 'official', url: links.ok }] }));
      report = (await api.call('get_link_report', { productId })).body;
      assert.equal(entryOf(report, links.ok).lastCheck, null, 'back as a new link, never checked');
    });

    it('results are stored: a server started afresh on the same store reports them', async () => {
      const api = suite.apis.rest;
      const { productId } = await guideWithLinks(api, 'Kept');
      assertOk(await api.call('check_links', { productId, urls: [links.moved] }));
      const { h } = suite;
      const store = await openStore({ databaseUrl: h.config.databaseUrl, dataDir: h.config.dataDir });
      const app = buildApp({ config: h.config, store, clock: h.clock, logger: pino({ level: 'silent' }) });
      try {
        const base = await app.listen('127.0.0.1', 0);
        const res = await rest(`${base}/api/v1`, h.alice.readKey, 'GET', `/guides/${productId}/links`);
        assert.equal(res.status, 200);
        assert.equal(entryOf(res.body, links.moved).lastCheck.status, 'redirected');
        assert.equal(entryOf(res.body, links.moved).lastCheck.finalUrl, at('/new'));
      } finally {
        await app.close();
        await store.close();
      }
    });
  });
}

describe('check_links takes the oldest first and at most 200 a call', () => {
  const suite = useServer({ services: { linkChecker } });

  it('300 links: 200 checked, 100 left; the next call starts with those never checked', async () => {
    const api = suite.apis.rest;
    const productId = await newGuide(api, 'Many');
    for (let batch = 0; batch < 2; batch++) {
      const spots = Array.from({ length: 25 }, (_, i) => ({
        spotKey: `s-${batch}-${i}`,
        name: `Spot ${batch}-${i}`,
        links: Array.from({ length: 6 }, (_, j) => ({ kind: 'other', url: at(`/ok/${batch}/${i}/${j}`) })),
      }));
      assertOk(await api.call('upsert_spots', { productId, spots }));
    }
    checkClock.set('2026-11-23T11:00:00Z');
    const first = await api.call('check_links', { productId });
    assert.equal(first.body.checked, 200);
    assert.equal(first.body.notChecked, 100);
    checkClock.set('2026-11-23T11:05:00Z');
    const second = await api.call('check_links', { productId });
    assert.equal(second.body.checked, 200);
    const report = (await api.call('get_link_report', { productId, limit: 500 })).body;
    assert.equal(report.count, 300);
    assert.equal(report.total, 300);
    assert.equal(report.counts.unchecked, 0, 'the 100 left out are checked by the second call');
    const checkedAt = report.links.map((l: { lastCheck: { checkedAt: number } }) => l.lastCheck.checkedAt);
    assert.equal(checkedAt.filter((t: number) => t === Date.parse('2026-11-23T11:00:00Z')).length, 100);
  });
});
