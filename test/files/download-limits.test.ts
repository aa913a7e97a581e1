import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';

/**
 * Download addresses spend from the rate limits every call does: a download counts against the key
 * (or assistant, or studio session) that asked for it and its creator; a token that opens nothing
 * counts as a failed authentication of the address, which, past its limit, is refused everything.
 */

const KEY_PER_MINUTE = 4;
const FAILURES_PER_MINUTE = 3;

/** A download's answer: status, envelope and the rate limit headers. */
async function get(url: string) {
  const res = await fetch(url);
  const text = await res.text();
  const body = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
  return { ok: res.status < 300, status: res.status, body, headers: res.headers };
}

/** The 429 envelope with its three headers, naming the policy that refused. */
function assertLimited(answer: Awaited<ReturnType<typeof get>>, policy: string) {
  assertError(answer, 'rate_limited');
  assert.equal(typeof answer.body.error.retryAfterMs, 'number');
  assert.equal(answer.body.error.details?.policy, policy);
  assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
  assert.match(answer.headers.get('ratelimit-policy') ?? '', new RegExp(`^"${policy}"`));
  assert.match(answer.headers.get('ratelimit') ?? '', new RegExp(`^"${policy}";r=0;`));
}

for (const { dialect, skip } of await testDialects()) {
  describe(`downloads are rate limited (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({
        dialect,
        env: {
          RATE_LIMIT_KEY_PER_MINUTE: String(KEY_PER_MINUTE),
          RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE),
        },
      });
    });
    after(async () => {
      await h?.close();
    });

    for (const t of transports) {
      it(`${t}: a download spends a call of the key that asked; past its limit, 429 with the envelope`, async () => {
        const made = await h.keys.create({ creatorId: h.alice.creatorId, scope: 'write', publish: false });
        const api = apiFor(h, t, made.key);
        try {
          const productId = await newGuide(api, `Downloads over ${t}`);
          const exported = await api.call('export_guide', { productId, format: 'geojson' });
          assertOk(exported);
          // Two calls spent (create_guide, export_guide); the rest of the minute's budget downloads.
          for (let left = KEY_PER_MINUTE - 2; left > 0; left--) {
            const file = await get(exported.body.url);
            assert.equal(file.status, 200);
            assert.match(file.headers.get('ratelimit') ?? '', /^"per-key";r=\d+;t=\d+$/);
          }
          assertLimited(await get(exported.body.url), 'per-key');
        } finally {
          await api.close();
        }
      });
    }

    it('a token that opens nothing counts as a failed authentication; past the limit the address is refused', async () => {
      const api = apiFor(h, 'rest', h.alice.writeKey);
      try {
        const productId = await newGuide(api, 'Probed');
        const exported = await api.call('export_guide', { productId, format: 'kml' });
        assertOk(exported);
        const url = exported.body.url as string;
        const base = url.slice(0, url.lastIndexOf('/') + 1);
        for (let i = 0; i < FAILURES_PER_MINUTE; i++) {
          const refused = await get(`${base}${'A'.repeat(43 + i)}`);
          assertError(refused, 'not_found');
        }
        assertLimited(await get(`${base}${'B'.repeat(43)}`), 'auth-failures-per-address');
        assertLimited(await get(url), 'auth-failures-per-address');
      } finally {
        await api.close();
      }
    });
  });
}
