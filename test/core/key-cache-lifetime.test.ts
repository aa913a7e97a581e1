import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { type Answer, assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';

/**
 * What revocation promises of the key cache's default lifetime. A revocation made through the
 * service or the admin command line is announced and reaches every instance within a second
 * whatever the lifetime; one written into the store by hand (SQL, no announcement) is refused once
 * `AUTH_CACHE_MS` passed, 2 s by default (README, "Configuration" and "Several instances";
 * docs/decisions/auth-and-keys.md). Each cache test passes its own lifetime, so only this suite
 * holds the default itself to the promise: the configuration's, the documents', and the running
 * server's, started without the setting.
 */
const PROMISED_MS = 2000;

/** What a call answered, a refusal the MCP client throws (an HTTP 401 there) included. */
async function answered(call: Promise<Answer>): Promise<Answer | { status: number; body: unknown }> {
  try {
    return await call;
  } catch (err) {
    const refused = (err as { data?: { status: number; text: string } }).data;
    if (!refused) throw err;
    return { status: refused.status, body: JSON.parse(refused.text) };
  }
}

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('the key cache lifetime by default', () => {
  it('is what the README and the decisions promise, and no longer', () => {
    const fallback = loadConfig({}).authCacheMs;
    assert.ok(fallback <= PROMISED_MS, `AUTH_CACHE_MS defaults to ${fallback} ms; revocation promises ${PROMISED_MS}`);
    const row = read('README.md').match(/^\| `AUTH_CACHE_MS` \| `(\d+)` \|/m);
    assert.equal(Number(row?.[1]), fallback, "the README's configuration table gives the default");
    for (const path of ['README.md', 'docs/decisions/auth-and-keys.md']) {
      const stated = read(path).match(/`AUTH_CACHE_MS` \((\d+(?:\.\d+)?) s by default\)/);
      assert.equal(Number(stated?.[1]) * 1000, PROMISED_MS, `${path} states the promise`);
    }
  });
});

for (const { dialect, skip } of await testDialects()) {
  describe(`a key revoked by hand is refused within the promise, by default (${dialect})`, { skip }, () => {
    // No AUTH_CACHE_MS: the server runs on the default.
    const suite = useServer({ dialect });

    before(async () => {
      // Keys are cached only under a revocation mark (PostgreSQL: once its listener proved itself).
      const { coordination } = suite.h.store;
      for (let waited = 0; coordination.revocationMark() === undefined; waited += 20) {
        assert.ok(waited < 5000, 'the store gives a revocation mark');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });

    for (const t of transports) {
      it(`over ${t}`, async () => {
        const { h } = suite;
        const made = await h.keys.create({ creatorId: h.alice.creatorId, scope: 'read', publish: false });
        const api = apiFor(h, t, made.key);
        try {
          assertOk(await api.call('whoami'));
          // By hand: no announcement, so only the cache's lifetime bounds how long the key is served.
          await h.store.db
            .updateTable('api_keys')
            .set({ revoked_at: h.clock.now() })
            .where('id', '=', made.keyId)
            .execute();
          h.clock.advance(PROMISED_MS);
          assertError(await answered(api.call('whoami')), 'invalid_api_key');
        } finally {
          await api.close();
        }
      });
    }
  });
}
