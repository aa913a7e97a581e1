import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';

const REGISTRATIONS_PER_HOUR = 6;

function register(h: Harness, redirectUris: string[]) {
  return fetch(`${h.origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Registration test',
      redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
}

function assertLockedDown(res: Response, what: string) {
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/, `${what}: ${csp}`);
  assert.match(csp, /frame-ancestors 'none'/, what);
  assert.match(csp, /base-uri 'none'/, what);
  assert.equal(res.headers.get('x-frame-options'), 'DENY', what);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
}

for (const { dialect, skip } of await testDialects()) {
  describe(`OAuth registration and the provider's own pages (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect, env: { RATE_LIMIT_REGISTRATIONS_PER_HOUR: String(REGISTRATIONS_PER_HOUR) } });
    });
    after(async () => {
      await h?.close();
    });

    it('refuses an http redirect URI that is not loopback (OAuth 2.1), takes loopback and https; then throttles the address', async () => {
      for (const uri of ['http://client.example/callback', 'http://127.0.0.2:9/callback']) {
        const refused = await register(h, ['http://127.0.0.1:9/callback', uri]);
        assert.equal(refused.status, 400, uri);
        const body = (await refused.json()) as { error: string; error_description: string };
        assert.equal(body.error, 'invalid_redirect_uri', uri);
        assert.match(body.error_description, /loopback/);
      }
      for (const uri of ['http://127.0.0.1:9/callback', 'http://[::1]:9/callback', 'http://localhost:9/callback']) {
        assert.equal((await register(h, [uri])).status, 201, uri);
      }
      assert.equal((await register(h, ['https://client.example/callback'])).status, 201);
      // Six registrations so far, refused ones included: the address's budget for the hour is spent.
      const throttled = await register(h, ['https://client.example/callback']);
      assert.equal(throttled.status, 429);
      assert.ok(Number(throttled.headers.get('retry-after')) > 0, 'Retry-After');
      assert.match(throttled.headers.get('ratelimit') ?? '', /"registrations-per-address";r=0/);
      const refusal = (await throttled.json()) as { error: string; error_description: string };
      assert.equal(refusal.error, 'rate_limited');
      assert.match(refusal.error_description, /register clients from this address/);
    });

    it("the provider's pages forbid script and framing; the metadata offers no OpenID", async () => {
      const error = await fetch(`${h.origin}/oauth/authorize?client_id=nobody&response_type=code`);
      assert.equal(error.status, 400);
      assert.match(error.headers.get('content-type') ?? '', /text\/html/);
      assertLockedDown(error, 'the authorization error page');

      const endSession = await fetch(`${h.origin}/oauth/session/end`);
      assert.equal(endSession.status, 404, 'no end-session endpoint: nothing to sign out of');
      assertLockedDown(endSession, '/oauth/session/end');

      const metadata = await fetch(`${h.origin}/.well-known/oauth-authorization-server`);
      assert.equal(metadata.status, 200);
      const as = (await metadata.json()) as Record<string, unknown>;
      assert.deepEqual(as.scopes_supported, ['read', 'write', 'publish']);
      for (const field of ['end_session_endpoint', 'claims_supported', 'id_token_signing_alg_values_supported']) {
        assert.equal(as[field], undefined, field);
      }
      assert.equal(as.registration_endpoint, `${h.origin}/oauth/register`, 'what is offered stays');
      const openId = await fetch(`${h.origin}/.well-known/openid-configuration`);
      assert.equal(openId.status, 404, 'no OpenID discovery');
    });
  });
}
