import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { adminJson } from '../helpers/admin-cli.ts';
import { freshPostgresSchema, testDialects } from '../helpers/dialects.ts';
import { rest } from '../helpers/http.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';
import { authorizeThroughStudio } from '../helpers/oauth-client.ts';
import { type Started, startService } from '../helpers/service.ts';
import { csrfOf, StudioBrowser } from '../helpers/studio.ts';

/**
 * Two real instances (`node src/main.ts`, two processes) behind one public address, on one
 * PostgreSQL schema and one Redis: whatever one acknowledged, the other answers as one instance
 * would. Writes go to one and reads to the other, over REST and MCP tools/call.
 */
const PUBLIC_URL = 'https://guides.example';
const KEY_PER_MINUTE = 50;
const postgres = (await testDialects()).find((d) => d.dialect === 'postgres');

describe('two instances on one PostgreSQL and one Redis', { skip: postgres?.skip ?? 'PostgreSQL not tested' }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-instances-'));
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let a: Started;
  let b: Started;
  let creatorId: string;
  const clients: Client[] = [];

  /** The admin command line on the instances' store. */
  function admin<T = Record<string, unknown>>(...args: string[]): Promise<T> {
    return adminJson<T>({ DATA_DIR: dataDir, DATABASE_URL: schema.url }, ...args);
  }

  const newKey = async () =>
    await admin<{ key: string; keyId: string }>(
      'key',
      'create',
      '--creator',
      creatorId,
      '--scope',
      'write',
      '--publish',
    );
  const api = (instance: Started) => `${instance.base}/api/v1`;
  const mcp = async (instance: Started, key: string) => {
    const client = await mcpClient(`${instance.base}/mcp`, key);
    clients.push(client);
    return client;
  };

  before(async () => {
    schema = await freshPostgresSchema();
    const env = {
      DATABASE_URL: schema.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      PUBLIC_URL,
      // A key would be trusted for a minute if no revocation were heard.
      AUTH_CACHE_MS: '60000',
      RATE_LIMIT_KEY_PER_MINUTE: String(KEY_PER_MINUTE),
      RATE_LIMIT_CREATOR_PER_HOUR: '100000',
    };
    // Both start at once on an empty store: both migrate, one makes the demo creator.
    [a, b] = await Promise.all([startService(dataDir, env), startService(dataDir, env)]);
    creatorId = (await admin<{ creatorId: string }>('creator', 'create', '--email', 'two@example.com', '--name', 'Two'))
      .creatorId;
    await admin('agreement', 'accept', '--creator', creatorId);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    for (const instance of [a, b]) {
      instance?.child.kill('SIGTERM');
      await instance?.exited;
    }
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starting together on an empty store, exactly one makes the demo creator and shows its key', async () => {
    const shown = [a, b].filter((i) => /Demo key sk_service_/.test(i.stdout()));
    assert.equal(shown.length, 1, `${a.stdout()}\n${b.stdout()}`);
    const { creators } = await admin<{ creators: Array<{ email: string }> }>('creator', 'list');
    assert.equal(creators.filter((c) => c.email === 'demo@example.com').length, 1);
  });

  it('every read on one instance sees the write the other acknowledged before it (REST and MCP)', async () => {
    const { key } = await newKey();
    const onA = await mcp(a, key);
    const onB = await mcp(b, key);
    const created = await rest(api(a), key, 'POST', '/guides', { name: 'Across instances' });
    assert.equal(created.status, 201);
    const productId = created.body.productId as string;
    for (let round = 1; round <= 4; round++) {
      const [writer, reader, readerMcp] = round % 2 ? [a, b, onB] : [b, a, onA];
      const headline = `Round ${round}`;
      assert.equal((await rest(api(writer), key, 'PATCH', `/guides/${productId}`, { headline })).status, 200);
      assert.equal((await rest(api(reader), key, 'GET', `/guides/${productId}`)).body.headline, headline);
      assert.equal((await callTool(readerMcp, 'get_guide', { productId })).body.headline, headline);
    }
    // A spot made over MCP on one shows in the other's list, and its edit in the other's read.
    const spot = await callTool(onA, 'create_spot', { productId, name: 'Lookout' });
    assert.equal(spot.isError, false, JSON.stringify(spot.body));
    const listed = await rest(api(b), key, 'GET', `/guides/${productId}/spots`);
    assert.deepEqual(
      listed.body.spots.map((s: { name: string }) => s.name),
      ['Lookout'],
    );
    const edited = await callTool(onB, 'update_spot', { spotId: spot.body.spotId, name: 'Lookout at dawn' });
    assert.equal(edited.isError, false, JSON.stringify(edited.body));
    assert.equal((await rest(api(a), key, 'GET', `/spots/${spot.body.spotId}`)).body.name, 'Lookout at dawn');
    assert.equal((await callTool(onA, 'get_guide', { productId })).body.spotCount, 1);
  });

  it('one rate budget: calls on either instance spend the same per-key limit', async () => {
    const { key } = await newKey();
    const left: number[] = [];
    for (let n = 0; n < KEY_PER_MINUTE; n++) {
      const answer = await rest(api(n % 2 ? b : a), key, 'GET', '/me');
      assert.equal(answer.status, 200);
      left.push(Number(/r=(\d+)/.exec(answer.headers.get('ratelimit') ?? '')?.[1]));
    }
    assert.deepEqual(
      left,
      Array.from({ length: KEY_PER_MINUTE }, (_, n) => KEY_PER_MINUTE - 1 - n),
      'one budget counted down across both',
    );
    for (const instance of [a, b]) {
      const refused = await rest(api(instance), key, 'GET', '/me');
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 'rate_limited');
    }
  });

  /** How long until every instance refuses the key with `code`, over REST and MCP; fails past a second. */
  async function refusedEverywhereWithin(key: string, code: string, clientsOf: Client[]): Promise<number> {
    const start = performance.now();
    for (;;) {
      const answers = await Promise.all([a, b].map((i) => rest(api(i), key, 'GET', '/me')));
      if (answers.every((r) => r.body?.error?.code === code)) break;
      assert.ok(performance.now() - start < 1000, `still accepted after a second: ${answers.map((r) => r.status)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const took = performance.now() - start;
    for (const client of clientsOf) {
      await assert.rejects(callTool(client, 'whoami'), 'refused over MCP too');
    }
    return took;
  }

  /** The creator signed in to the studio on `instance`, through the first-password link the operator hands over. */
  async function signedInStudio(instance: Started, creator: string): Promise<StudioBrowser> {
    const { link } = await admin<{ link: string }>('creator', 'password', '--creator', creator);
    const studio = new StudioBrowser(instance.base);
    const url = new URL(link);
    const form = await studio.get(url.pathname + url.search);
    const token = url.searchParams.get('token') as string;
    const set = await studio.post('/studio/reset', { _csrf: csrfOf(form.text), token, password: 'across instances 1' });
    assert.equal(set.status, 303, set.text.slice(0, 300));
    return studio;
  }

  /** A REST access token of `creator`'s, granted in the studio on instance A. */
  const assistantToken = async (studio: StudioBrowser, clientName: string) =>
    (await authorizeThroughStudio(a.base, studio, { clientName, resource: `${PUBLIC_URL}/api/v1` })).accessToken;

  it('an assistant disconnected in the studio on one instance is refused by both within a second', async () => {
    const studio = await signedInStudio(a, creatorId);
    const token = await assistantToken(studio, 'Across (test)');
    for (const instance of [a, b]) assert.equal((await rest(api(instance), token, 'GET', '/me')).status, 200);
    const page = await studio.get('/studio/assistants');
    const grantId = /data-grant-id="([^"]+)"><td data-label="Assistant"><strong>Across \(test\)/.exec(page.text)?.[1];
    assert.ok(grantId, 'the studio lists the assistant');
    const revoked = await studio.post(`/studio/assistants/${grantId}/revoke`, { _csrf: csrfOf(page.text) });
    assert.equal(revoked.status, 303);
    await refusedEverywhereWithin(token, 'invalid_api_key', []);
  });

  it('a key revoked by the admin command line is refused by both instances within a second', async () => {
    const { key, keyId } = await newKey();
    const both = [await mcp(a, key), await mcp(b, key)];
    for (const client of both) assert.equal((await callTool(client, 'whoami')).isError, false);
    for (const instance of [a, b]) assert.equal((await rest(api(instance), key, 'GET', '/me')).status, 200);
    await admin('key', 'revoke', '--key', keyId);
    await refusedEverywhereWithin(key, 'invalid_api_key', both);
  });

  it('a creator deactivated by the admin command line is refused by both instances within a second', async () => {
    const { creatorId: other } = await admin<{ creatorId: string }>(
      'creator',
      'create',
      '--email',
      'leaving@example.com',
      '--name',
      'Leaving',
    );
    const { key } = await admin<{ key: string }>('key', 'create', '--creator', other, '--scope', 'read');
    const token = await assistantToken(await signedInStudio(a, other), 'Leaving (test)');
    for (const credential of [key, token]) {
      for (const instance of [a, b]) assert.equal((await rest(api(instance), credential, 'GET', '/me')).status, 200);
    }
    await admin('creator', 'deactivate', '--creator', other);
    // Its keys and its assistants' tokens alike.
    await Promise.all([key, token].map((credential) => refusedEverywhereWithin(credential, 'forbidden', [])));
  });

  it('a publish on one instance shows on the other’s buyers’ page at once, byte for byte', async () => {
    const { key } = await newKey();
    const productId = (await rest(api(a), key, 'POST', '/guides', { name: 'Lakes of Carinthia' })).body.productId;
    assert.equal(
      (await rest(api(a), key, 'PUT', `/guides/${productId}/price`, { amountMinor: 1900, currency: 'eur' })).status,
      200,
    );
    const spot = await rest(api(b), key, 'POST', `/guides/${productId}/spots`, {
      name: 'Wörthersee',
      lat: 46.62,
      lon: 14.15,
      description: 'Warm water in July.',
      sources: [{ url: 'https://example.com/lake', title: 'Lake office' }],
      reviewNotes: 'Check the ferry times',
    });
    assert.equal(spot.status, 201, JSON.stringify(spot.body));
    const live = await admin<{ release: { number: number } }>(
      'guide',
      'status',
      '--guide',
      productId,
      '--to',
      'published',
    );
    assert.equal(live.release.number, 1);
    const path = new URL((await rest(api(a), key, 'GET', `/guides/${productId}`)).body.salesPageUrl).pathname;
    const page = async (instance: Started, etag?: string) => {
      const res = await fetch(`${instance.base}${path}`, { headers: etag ? { 'if-none-match': etag } : {} });
      return { status: res.status, etag: res.headers.get('etag') ?? '', html: await res.text() };
    };
    const first = [await page(a), await page(b)];
    assert.deepEqual(
      first.map((p) => p.status),
      [200, 200],
    );
    assert.equal(first[0]!.html, first[1]!.html, 'the same page from either instance');
    assert.equal(first[0]!.etag, first[1]!.etag);
    assert.equal((await page(b, first[0]!.etag)).status, 304, 'an ETag from one is good on the other');
    for (let round = 1; round <= 3; round++) {
      const [publisher, reader] = round % 2 ? [a, b] : [b, a];
      const name = `Lakes of Carinthia, edition ${round}`;
      assert.equal((await rest(api(publisher), key, 'PATCH', `/guides/${productId}`, { name })).status, 200);
      assert.doesNotMatch((await page(reader)).html, new RegExp(name), 'not before the publish');
      const published = await rest(api(publisher), key, 'POST', `/guides/${productId}/publish`);
      assert.equal(published.body.published, true, JSON.stringify(published.body));
      const seen = await page(reader, first[0]!.etag);
      assert.equal(seen.status, 200, 'the old ETag no longer matches');
      assert.match(seen.html, new RegExp(name));
      assert.equal(seen.html, (await page(publisher)).html);
    }
  });

  it('publishes racing on both instances make one release; nothing fails', async () => {
    const { key } = await newKey();
    const productId = (await rest(api(a), key, 'POST', '/guides', { name: 'Raced' })).body.productId;
    await rest(api(a), key, 'PUT', `/guides/${productId}/price`, { amountMinor: 900, currency: 'eur' });
    await rest(api(a), key, 'POST', `/guides/${productId}/spots`, {
      name: 'Pyramidenkogel',
      lat: 46.6,
      lon: 14.14,
      description: 'A tower above the lake.',
      sources: [{ url: 'https://example.com/tower', title: 'Tower' }],
      reviewNotes: 'Opening hours',
    });
    await admin('guide', 'status', '--guide', productId, '--to', 'published');
    await rest(api(b), key, 'PATCH', `/guides/${productId}`, { headline: 'Raced to the top' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => rest(api(n % 2 ? b : a), key, 'POST', `/guides/${productId}/publish`)),
    );
    assert.deepEqual(
      answers.map((r) => r.status),
      Array(8).fill(200),
      JSON.stringify(answers.map((r) => r.body)),
    );
    assert.equal(answers.filter((r) => r.body.published).length, 1, 'one release for one change');
    assert.deepEqual(new Set(answers.map((r) => r.body.release.number)), new Set([2]));
  });
});
