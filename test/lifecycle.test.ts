import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startService } from './helpers/service.ts';

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-start-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a fresh DATA_DIR gets a demo creator whose printed key works; a second start prints none', async () => {
    const first = await startService(dataDir);
    const key = /Demo key (sk_service_\S+)/.exec(first.output())?.[1];
    assert.ok(key, `no demo key printed:\n${first.output()}`);
    assert.match(first.output(), /MCP\s+http:\/\/\S+\/mcp/);
    const me = await fetch(`${first.base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(me.status, 200);
    const body = (await me.json()) as { key: { scopes: string[] } };
    assert.deepEqual(body.key.scopes, ['read', 'write', 'publish']);
    const health = await fetch(`${first.base}/healthz`);
    assert.equal(health.status, 200);
    assert.ok(health.headers.get('x-request-id'));
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);

    const second = await startService(dataDir);
    assert.doesNotMatch(second.output(), /Demo key/);
    const again = await fetch(`${second.base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(again.status, 200, 'the demo key outlives a restart');
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  const inFlight = [
    {
      transport: 'REST',
      path: '/api/v1/guides',
      headers: {},
      body: (name: string) => ({ name }),
      success: (status: number, text: string) => status === 201 && text.includes('"productId"'),
    },
    {
      transport: 'MCP (2025 stateless tools/call)',
      path: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: (name: string) => ({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_guide', arguments: { name } },
      }),
      success: (status: number, text: string) =>
        status === 200 && text.includes('productId') && !text.includes('isError'),
    },
  ];

  for (const { transport, path, headers, body: bodyOf, success } of inFlight) {
    test(`SIGTERM cuts a ${transport} request still sending its body: nothing is written and the process exits 0`, async () => {
      const service = await startService(dataDir);
      // A key of the demo creator, minted through the admin path the tests trust: the store.
      const { openStore } = await import('../src/store.ts');
      const { KeyStore } = await import('../src/core/keys.ts');
      const { systemClock } = await import('../src/core/clock.ts');
      const store = await openStore({ dataDir });
      const creator = await store.db.selectFrom('creators').select('id').executeTakeFirstOrThrow();
      const { key } = await new KeyStore(store.db, systemClock).create({
        creatorId: creator.id,
        scope: 'write',
        publish: false,
      });

      const name = `Written during shutdown over ${transport}`;
      const body = JSON.stringify(bodyOf(name));
      const url = new URL(`${service.base}${path}`);
      const answer = new Promise<{ status: number; text: string }>((resolve) => {
        const req = request(
          url,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              ...headers,
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c) => {
              text += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        // A cut connection is the expected answer: the handler never ran, so a retry elsewhere is safe.
        req.on('error', (err) => resolve({ status: 0, text: String(err) }));
        // Half the body now, the signal, then the rest: the request is still arriving when SIGTERM lands.
        req.write(body.slice(0, 10));
        setTimeout(() => {
          service.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(10)), 300);
        }, 200);
      });
      const res = await answer;
      assert.ok(!success(res.status, res.text), `cut, not answered: ${res.status} ${res.text}`);
      assert.equal(await service.exited, 0);
      const stored = await store.db.selectFrom('guides').select('name').where('name', '=', name).execute();
      assert.equal(stored.length, 0, 'a request cut before its body arrived wrote nothing');
      await store.close();
    });
  }
});
