import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../../src/app.ts';
import { loadObservability } from '../../src/observability/index.ts';
import { openStore, type Store } from '../../src/store.ts';
import { assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, noRateLimits, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import type { Harness } from '../helpers/harness.ts';
import { argsOf, fillGuide, issuedCursor, PAGED_LISTS } from './cursor-lists.ts';

/**
 * Two instances of one deployment (two apps, each with its own pool, on one store) answer as one:
 * a cursor either issued reads on at the other, to the same page, on every paged list, even when
 * both issued their first cursor at the same moment on a store that held no key yet.
 */

/** What a page answers beside its cursor, which is sealed anew each time. */
function pageOf(body: Record<string, unknown>): Record<string, unknown> {
  const { nextCursor: _, ...page } = body;
  return page;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`a cursor issued by one instance reads on at another (${dialect})`, { skip }, () => {
    // One public address, as the README asks of instances behind one: their answers then read alike.
    const suite = useServer({ dialect, env: { ...noRateLimits, PUBLIC_URL: 'https://guides.example' } });
    let secondStore: Store;
    let second: App;
    let atSecond: Harness;

    before(async () => {
      const { config, clock } = suite.h;
      secondStore = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      second = buildApp({
        config,
        store: secondStore,
        clock,
        logger: pino({ level: 'silent' }),
        observability: await loadObservability(config),
      });
      const address = await second.listen('127.0.0.1', 0);
      atSecond = { ...suite.h, baseUrl: `${address}/api/v1`, mcpUrl: `${address}/mcp` };
    });
    after(async () => {
      await second?.close();
      await secondStore?.close();
    });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        let one: Api;
        let other: Api;
        before(() => {
          one = suite.apis[t];
          other = apiFor(atSecond, t, suite.h.alice.writeKey);
        });
        after(() => other.close());

        it('both issue their first cursors at once, and each reads the other’s on every list', async () => {
          for (const name of ['First', 'Second']) assertOk(await one.call('create_guide', { name }), 201);
          // The first cursors of the deployment, at the same moment: both instances need the key.
          const [fromOne, fromOther] = await Promise.all([
            one.call('list_guides', { limit: 1 }),
            other.call('list_guides', { limit: 1 }),
          ]);
          for (const [issuer, reader, first] of [
            [one, other, fromOne],
            [other, one, fromOther],
          ] as const) {
            assertOk(first);
            const cursor = first.body.nextCursor as string;
            const there = await reader.call('list_guides', { limit: 1, cursor });
            assertOk(there);
            assert.deepEqual(pageOf(there.body), pageOf((await issuer.call('list_guides', { limit: 1, cursor })).body));
          }
          const guide = await fillGuide(suite.h, one, suite.h.alice.writeKey, `Two instances over ${t}`);
          for (const list of PAGED_LISTS) {
            for (const [issuer, reader] of [
              [one, other],
              [other, one],
            ] as const) {
              const cursor = await issuedCursor(issuer, list, guide);
              const there = await reader.call(list.name, argsOf(list, guide, { cursor, limit: 1 }));
              assertOk(there);
              const here = await issuer.call(list.name, argsOf(list, guide, { cursor, limit: 1 }));
              assert.deepEqual(pageOf(there.body), pageOf(here.body), list.name);
            }
          }
        });
      });
    }
  });
}
