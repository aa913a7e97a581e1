import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError } from '../helpers/answers.ts';
import { testDialects } from '../helpers/dialects.ts';
import { accessTokenHash, DpopKey, type ProofClaims } from '../helpers/dpop.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { authorizeThroughStudio } from '../helpers/oauth-client.ts';
import { type Started, startService } from '../helpers/service.ts';
import { signedInAs } from '../helpers/studio.ts';

/**
 * DPoP (RFC 9449) at the two protected resources: a token the authorization server bound to a
 * client's key is honoured only with the DPoP scheme and a fresh proof of that key for the very
 * request, taken once across every instance. Each row of the table breaks one rule of the proof.
 */
type Resource = 'mcp' | 'rest';

/** A request each resource answers 200 to a valid token: tools/list, and GET /me. */
function requestTo(h: Harness | { origin: string }, resource: Resource) {
  return resource === 'mcp'
    ? {
        url: `${h.origin}/mcp`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }
    : { url: `${h.origin}/api/v1/me`, method: 'GET', headers: {}, body: undefined };
}

/** The request sent to `origin` with this Authorization and DPoP header; the answer's status, challenge and body. */
async function send(origin: string, resource: Resource, authorization: string, proof?: string) {
  const r = requestTo({ origin }, resource);
  const res = await fetch(r.url, {
    method: r.method,
    headers: { ...r.headers, authorization, ...(proof !== undefined && { dpop: proof }) },
    body: r.body,
  });
  const text = await res.text();
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate') ?? '',
    body: text.startsWith('{') ? JSON.parse(text) : text,
  };
}

/** One broken rule: the proof made for a request to `url` (`htu`) with `token`, by `key`; `other` is another key. */
interface Case {
  title: string;
  /** What the refusal's message says. */
  says: RegExp;
  proof(p: { key: DpopKey; other: DpopKey; url: string; method: string; token: string }): Promise<string | undefined>;
}

const now = () => Math.floor(Date.now() / 1000);
const valid = (p: { url: string; method: string; token: string }): ProofClaims => ({
  htm: p.method,
  htu: p.url,
  ath: accessTokenHash(p.token),
});

const CASES: Case[] = [
  { title: 'no DPoP header', says: /header is missing/, proof: async () => undefined },
  {
    title: 'htm of another method',
    says: /htm is PUT/,
    proof: ({ key, ...p }) => key.proof({ ...valid(p), htm: 'PUT' }),
  },
  {
    title: 'htu of another path',
    says: /htu is not/,
    proof: ({ key, ...p }) => key.proof({ ...valid(p), htu: `${new URL(p.url).origin}/api/v1/guides` }),
  },
  {
    title: 'htu of another host',
    says: /htu is not/,
    proof: ({ key, ...p }) => key.proof({ ...valid(p), htu: `https://guides.example${new URL(p.url).pathname}` }),
  },
  {
    title: 'iat ten minutes ago',
    says: /iat is more than 300 s from now/,
    proof: ({ key, ...p }) => key.proof({ ...valid(p), iat: now() - 600 }),
  },
  {
    title: 'iat ten minutes ahead',
    says: /iat is more than 300 s from now/,
    proof: ({ key, ...p }) => key.proof({ ...valid(p), iat: now() + 600 }),
  },
  {
    title: 'ath of another token',
    says: /ath is not the hash/,
    proof: ({ key, ...p }) => key.proof({ ...valid(p), ath: accessTokenHash(`${p.token}x`) }),
  },
  { title: 'no ath', says: /ath is not the hash/, proof: ({ key, ...p }) => key.proof({ htm: p.method, htu: p.url }) },
  {
    title: 'signed by a key whose thumbprint is not the token’s cnf.jkt',
    says: /signed by another key/,
    proof: ({ other, ...p }) => other.proof(valid(p)),
  },
  {
    title: 'the bound key’s JWK in the header, signed by another key',
    says: /signature does not verify/,
    proof: ({ key, other, ...p }) => other.proof(valid(p), { jwk: key.jwk }),
  },
  {
    title: 'a claim changed after signing',
    says: /signature does not verify/,
    proof: async ({ key, ...p }) => {
      const [header, payload, signature] = (await key.proof(valid(p))).split('.');
      const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
      const changed = Buffer.from(JSON.stringify({ ...claims, iat: claims.iat - 1 })).toString('base64url');
      return `${header}.${changed}.${signature}`;
    },
  },
  { title: 'typ not dpop+jwt', says: /typ/, proof: ({ key, ...p }) => key.proof(valid(p), { typ: 'JWT' }) },
  {
    title: 'no jti',
    says: /jti/,
    proof: ({ key, ...p }) => key.proof({ ...valid(p), jti: undefined as unknown as string }),
  },
  { title: 'not a JWT', says: /is not valid/, proof: async () => 'not.a.proof' },
];

for (const { dialect, skip } of await testDialects()) {
  describe(`DPoP-bound tokens at /mcp and /api/v1 (${dialect})`, { skip }, () => {
    let h: Harness;
    let key: DpopKey;
    let other: DpopKey;
    /** A DPoP-bound token for each resource, and one bound to nothing (for /mcp). */
    const bound: Partial<Record<Resource, string>> = {};
    let unbound: string;

    before(async () => {
      h = await startServer({ dialect });
      key = await DpopKey.create();
      other = await DpopKey.create();
      const studio = await signedInAs(h, h.alice.creatorId);
      for (const [resource, url] of [
        ['mcp', h.mcpUrl],
        ['rest', h.baseUrl],
      ] as const) {
        const tokens = await authorizeThroughStudio(h.origin, studio, {
          clientName: `DPoP ${resource} (test)`,
          resource: url,
          dpopProof: (htm, htu) => key.proof({ htm, htu }),
        });
        assert.equal(tokens.tokenType, 'DPoP', 'the authorization server bound the token to the key');
        bound[resource] = tokens.accessToken;
      }
      unbound = (await authorizeThroughStudio(h.origin, studio, { clientName: 'Plain (test)', resource: h.mcpUrl }))
        .accessToken;
    });
    after(async () => {
      await h?.close();
    });

    /** A valid proof for the resource's request with its bound token. */
    const proofFor = (resource: Resource, by = key) => {
      const { url, method } = requestTo(h, resource);
      return by.proof({ htm: method, htu: url, ath: accessTokenHash(bound[resource] as string) });
    };

    for (const resource of ['mcp', 'rest'] as const) {
      it(`${resource}: honoured with the DPoP scheme and a fresh proof; the same proof again is refused`, async () => {
        const proof = await proofFor(resource);
        const first = await send(h.origin, resource, `DPoP ${bound[resource]}`, proof);
        assert.equal(first.status, 200, JSON.stringify(first.body));
        const again = await send(h.origin, resource, `DPoP ${bound[resource]}`, proof);
        assert.equal(again.status, 401);
        assertError(again, 'invalid_api_key', undefined, { hint: /used before/ });
        assert.match(again.challenge, /DPoP error="invalid_dpop_proof"/);
        const fresh = await send(h.origin, resource, `DPoP ${bound[resource]}`, await proofFor(resource));
        assert.equal(fresh.status, 200, 'a new proof (a new jti) is taken');
      });

      it(`${resource}: a DPoP-bound token sent as Bearer is refused, with a DPoP invalid_token challenge`, async () => {
        const refused = await send(h.origin, resource, `Bearer ${bound[resource]}`, await proofFor(resource));
        assert.equal(refused.status, 401);
        assertError(refused, 'invalid_api_key', undefined, { hint: /bound to a DPoP key/ });
        assert.match(refused.challenge, /^Bearer error="invalid_token", resource_metadata="[^"]+", scope="[^"]+"/);
        assert.match(refused.challenge, /, DPoP error="invalid_token", algs="ES256 Ed25519 EdDSA"$/);
      });

      for (const c of CASES) {
        it(`${resource}: ${c.title} → 401 invalid_dpop_proof`, async () => {
          const { url, method } = requestTo(h, resource);
          const token = bound[resource] as string;
          const proof = await c.proof({ key, other, url, method, token });
          const refused = await send(h.origin, resource, `DPoP ${token}`, proof);
          assert.equal(refused.status, 401, JSON.stringify(refused.body));
          assertError(refused, 'invalid_api_key', undefined, { hint: c.says });
          assert.match(refused.challenge, /, DPoP error="invalid_dpop_proof", algs="[^"]+"$/);
        });
      }
    }

    it('a token bound to nothing is refused with the DPoP scheme, taken as Bearer; an API key only as Bearer', async () => {
      const proof = await key.proof({ htm: 'POST', htu: h.mcpUrl, ath: accessTokenHash(unbound) });
      const asDpop = await send(h.origin, 'mcp', `DPoP ${unbound}`, proof);
      assert.equal(asDpop.status, 401);
      assertError(asDpop, 'invalid_api_key', undefined, { hint: /not bound to a DPoP key/ });
      assert.match(asDpop.challenge, /DPoP error="invalid_token"/);
      assert.equal((await send(h.origin, 'mcp', `Bearer ${unbound}`)).status, 200);
      const keyAsDpop = await send(h.origin, 'rest', `DPoP ${h.alice.readKey}`);
      assert.equal(keyAsDpop.status, 401);
      assertError(keyAsDpop, 'invalid_api_key', undefined, { hint: /Bearer <API_KEY>/ });
    });

    describe('two instances of one deployment', () => {
      let second: Started | undefined;
      before(async () => {
        // Another process on the same store, behind the same public address.
        second = await startService(h.config.dataDir, {
          PUBLIC_URL: h.origin,
          ...(h.config.databaseUrl && { DATABASE_URL: h.config.databaseUrl }),
        });
      });
      after(async () => {
        second?.child.kill('SIGTERM');
        await second?.exited;
      });

      for (const resource of ['mcp', 'rest'] as const) {
        it(`${resource}: a proof taken by one instance is refused by the other`, async () => {
          const proof = await proofFor(resource);
          const there = await send(second?.base as string, resource, `DPoP ${bound[resource]}`, proof);
          assert.equal(there.status, 200, JSON.stringify(there.body));
          const here = await send(h.origin, resource, `DPoP ${bound[resource]}`, proof);
          assert.equal(here.status, 401);
          assertError(here, 'invalid_api_key', undefined, { hint: /used before/ });
        });
      }
    });
  });
}
