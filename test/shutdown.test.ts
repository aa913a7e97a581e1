import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { constants as osConstants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { systemClock } from '../src/core/clock.ts';
import { KeyStore } from '../src/core/keys.ts';
import { openStore } from '../src/store.ts';
import { assertOk } from './helpers/answers.ts';
import { apiFor } from './helpers/api.ts';
import { newGuide } from './helpers/fixtures.ts';
import { startServer } from './helpers/harness.ts';
import { checkerFor, serve } from './helpers/local-servers.ts';
import { startService } from './helpers/service.ts';

const root = new URL('..', import.meta.url).pathname;

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'creator-api-shutdown-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A write key of the service's demo creator, minted in the store as the admin command line would. */
async function demoKey(dataDir: string): Promise<string> {
  const store = await openStore({ dataDir });
  try {
    const creator = await store.db.selectFrom('creators').select('id').executeTakeFirstOrThrow();
    const { key } = await new KeyStore(store.db, systemClock).create({
      creatorId: creator.id,
      scope: 'write',
      publish: false,
    });
    return key;
  } finally {
    await store.close();
  }
}

async function guideNames(dataDir: string): Promise<string[]> {
  const store = await openStore({ dataDir });
  try {
    return (await store.db.selectFrom('guides').select('name').execute()).map((g) => g.name);
  } finally {
    await store.close();
  }
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Every HTTP/1.1 answer a socket received until it closed, read by content-length. */
function readAnswers(socket: Socket): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      let rest = Buffer.concat(chunks).toString('latin1');
      const answers: RawAnswer[] = [];
      while (rest.length > 0) {
        const end = rest.indexOf('\r\n\r\n');
        if (end < 0) break;
        const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? 0);
        answers.push({
          status: Number(statusLine?.split(' ')[1]),
          headers,
          body: rest.slice(end + 4, end + 4 + length),
        });
        rest = rest.slice(end + 4 + length);
      }
      resolve(answers);
    });
  });
}

function httpRequest(method: string, path: string, key: string, body?: unknown, extra: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const head = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${key}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${head.join('\r\n')}\r\n\r\n${text}`;
}

/** The exit code, or 128 + the signal's number when a signal ended the process (as a shell reports it). */
const exitOf = (child: ChildProcess) =>
  new Promise<number>((resolve) => {
    const settle = () => resolve(child.exitCode ?? 128 + osConstants.signals[child.signalCode as NodeJS.Signals]);
    if (child.exitCode !== null || child.signalCode !== null) settle();
    else child.once('exit', settle);
  });

/**
 * A server whose link checks hang until `release`: a check_links keeps its connection busy through
 * a shutdown. It has two guides of one spot with one link each (checks of one guide run one at a
 * time, so each busy connection checks a guide of its own).
 */
async function serverWithHeldChecks(env: Record<string, string> = {}) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const site = await serve((_req, res) => void released.then(() => res.end('hello')));
  const h = await startServer({ services: { linkChecker: checkerFor([site]) }, env });
  const api = apiFor(h, 'rest', h.alice.writeKey);
  const productIds: string[] = [];
  for (const n of [1, 2]) {
    const productId = await newGuide(api, `Shutdown links ${n}`);
    assertOk(
      await api.call('create_spot', {
        productId,
        name: 'Lookout',
        links: [{ kind: 'official', url: `${site.origin}/${n}` }],
      }),
      201,
    );
    productIds.push(productId);
  }
  await api.close();
  return { h, site, productIds, release };
}

describe('shutdown', () => {
  it('a request arriving on a kept-alive connection during shutdown gets the envelope (REST and MCP)', async () => {
    // A check_links on each connection keeps it busy through the shutdown.
    const { h, site, productIds, release } = await serverWithHeldChecks();
    try {
      const key = h.alice.writeKey;
      const port = new URL(h.baseUrl).port;
      const late = {
        rest: httpRequest('POST', '/api/v1/guides', key, { name: 'Too late (REST)' }),
        mcp: httpRequest(
          'POST',
          '/mcp',
          key,
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'create_guide', arguments: { name: 'Too late (MCP)' } },
          },
          { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
        ),
      };
      const sockets = Object.fromEntries(
        Object.keys(late).map((name) => [name, connect(Number(port), '127.0.0.1')]),
      ) as Record<keyof typeof late, Socket>;
      const answers = Object.fromEntries(
        Object.entries(sockets).map(([name, socket]) => [name, readAnswers(socket)]),
      ) as Record<keyof typeof late, Promise<RawAnswer[]>>;
      for (const [i, socket] of Object.values(sockets).entries()) {
        socket.write(httpRequest('POST', `/api/v1/guides/${productIds[i]}/links/check`, key, {}));
      }
      while (site.requests.length < 2) await new Promise((r) => setTimeout(r, 10));

      const closed = h.app.close();
      for (const [name, socket] of Object.entries(sockets)) socket.write(late[name as keyof typeof late]);
      await new Promise((r) => setTimeout(r, 200));
      release();
      await closed;

      for (const name of Object.keys(late) as (keyof typeof late)[]) {
        const [check, refused] = await answers[name];
        assert.equal(check?.status, 200, `${name}: the check in flight finished: ${check?.body}`);
        assert.equal(refused?.status, 503, `${name}: ${JSON.stringify(refused)}`);
        assert.equal(refused?.headers.connection, 'close');
        assert.equal(refused?.headers['retry-after'], '1');
        assert.match(refused?.headers['content-type'] ?? '', /^application\/json/);
        const envelope = JSON.parse(refused?.body ?? '{}');
        assert.equal(envelope.error.code, 'rate_limited', name);
        assert.equal(envelope.error.retryAfterMs, 1000);
        assert.match(envelope.error.message, /shutting down/);
      }
      const names = (await h.store.db.selectFrom('guides').select('name').execute()).map((g) => g.name);
      assert.ok(!names.some((n) => n.startsWith('Too late')), 'nothing refused was written');
    } finally {
      release();
      await h.close().catch(() => {});
    }
  });

  it('/readyz answers not ready before the server stops taking requests (SHUTDOWN_DELAY_MS), and after', async () => {
    const { h, site, productIds, release } = await serverWithHeldChecks({ SHUTDOWN_DELAY_MS: '600' });
    try {
      const key = h.alice.writeKey;
      // Checks held by the site keep two connections busy through the shutdown (Node closes each
      // connection after its next answer once the server closes, so each carries one late request).
      const sockets = [0, 1].map(() => connect(Number(new URL(h.baseUrl).port), '127.0.0.1'));
      const answers = sockets.map(readAnswers);
      for (const [i, socket] of sockets.entries()) {
        socket.write(httpRequest('POST', `/api/v1/guides/${productIds[i]}/links/check`, key, {}));
      }
      while (site.requests.length < 2) await new Promise((r) => setTimeout(r, 10));

      const signalled = Date.now();
      const closed = h.app.close();
      // Within the delay: not ready, yet requests are still served.
      const ready = await fetch(`${h.origin}/readyz`);
      assert.equal(ready.status, 503);
      assert.deepEqual(await ready.json(), { status: 'not_ready', reason: 'this instance is shutting down' });
      const served = await fetch(`${h.baseUrl}/me`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(served.status, 200, 'still taking requests while the load balancer notices');
      assert.ok(Date.now() - signalled < 600, 'both answered within the delay');

      // After the delay: requests are refused, and /readyz still says not ready.
      await new Promise((r) => setTimeout(r, 700 - (Date.now() - signalled)));
      sockets[0]?.write(httpRequest('GET', '/readyz', key));
      sockets[1]?.write(httpRequest('GET', '/api/v1/me', key));
      await new Promise((r) => setTimeout(r, 100));
      release();
      await closed;
      const [[check, readyLater] = [], [otherCheck, refused] = []] = await Promise.all(answers);
      assert.equal(check?.status, 200, check?.body);
      assert.equal(otherCheck?.status, 200, otherCheck?.body);
      assert.equal(readyLater?.status, 503);
      assert.equal(JSON.parse(readyLater?.body ?? '{}').status, 'not_ready');
      assert.equal(refused?.status, 503);
      assert.equal(JSON.parse(refused?.body ?? '{}').error.code, 'rate_limited');
    } finally {
      release();
      await h.close().catch(() => {});
    }
  });

  it('a client stalled mid-body is cut at once: the process exits 0 long before the grace period', async () => {
    const dataDir = freshDir();
    const service = await startService(dataDir, { SHUTDOWN_GRACE_MS: '30000' });
    const key = await demoKey(dataDir);
    const { port } = new URL(service.base);
    const socket = connect(Number(port), '127.0.0.1');
    const answers = readAnswers(socket);
    const body = JSON.stringify({ name: 'Never finished' });
    socket.write(
      httpRequest('POST', '/api/v1/guides', key, undefined).replace(
        'Content-Length: 0',
        `Content-Length: ${body.length}`,
      ),
    );
    socket.write(body.slice(0, 5));
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0);
    assert.ok(Date.now() - signalled < 10_000, `exited in ${Date.now() - signalled} ms, not after the grace period`);
    assert.deepEqual(await answers, [], 'the stalled request was cut, not answered');
    assert.ok(!(await guideNames(dataDir)).includes('Never finished'));
  });

  it('npm start drains on SIGTERM: every request in flight is answered, then npm exits 0', async () => {
    const dataDir = freshDir();
    // Exactly what the README says to run, in a process group of its own so nothing outlives the test.
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    after(() => {
      try {
        process.kill(-(npm.pid as number), 'SIGKILL');
      } catch {}
    });
    let out = '';
    npm.stdout?.on('data', (c) => {
      out += c;
    });
    npm.stderr?.on('data', (c) => {
      out += c;
    });
    const deadline = Date.now() + 30_000;
    while (!/REST\s+http:\/\/\S+\/api\/v1/.test(out)) {
      assert.ok(Date.now() < deadline && npm.exitCode === null, `npm start did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const base = /REST\s+(http:\/\/\S+\/api\/v1)/.exec(out)?.[1] as string;
    const key = await demoKey(dataDir);
    const agent = new Agent({ keepAlive: true, maxSockets: 30 });
    const send = (method: string, path: string, body?: unknown) =>
      new Promise<{ status: number; text: string; written: Promise<void> }>((resolve, reject) => {
        const text = body === undefined ? undefined : JSON.stringify(body);
        let onWritten = () => {};
        const written = new Promise<void>((r) => {
          onWritten = r;
        });
        const req = request(
          `${base}${path}`,
          {
            method,
            agent,
            headers: { authorization: `Bearer ${key}`, ...(text && { 'content-type': 'application/json' }) },
          },
          (res) => {
            let answer = '';
            res.on('data', (c) => {
              answer += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: answer, written }));
          },
        );
        req.on('error', reject);
        req.on('finish', onWritten);
        req.end(text);
      });
    // Thirty connections open first, so that every request below goes out on one the server accepted.
    await Promise.all(Array.from({ length: 30 }, () => send('GET', '/me')));
    const spots = Array.from({ length: 25 }, (_, i) => ({
      spotKey: `s${i}`,
      name: `Spot ${i}`,
      lat: 46 + i / 100,
      lon: 14,
      description: 'x'.repeat(2000),
    }));
    const inFlight = Array.from({ length: 30 }, async (_, i) => {
      const made = await send('POST', '/guides', { name: `In flight ${i}` });
      assert.equal(made.status, 201, made.text);
      return JSON.parse(made.text).productId as string;
    });
    const productIds = await Promise.all(inFlight);
    const writes = productIds.map((productId) => send('POST', `/guides/${productId}/spots/batch`, { spots }));
    await new Promise((r) => setTimeout(r, 5));
    npm.kill('SIGTERM');
    // npm must outlive the drain: it exits only once node has answered everything in flight.
    const exit = await exitOf(npm);
    const answered = await Promise.allSettled(writes);
    agent.destroy();
    assert.equal(exit, 0, `npm exited ${exit}:\n${out}`);
    const failures = answered
      .filter((a) => a.status === 'rejected')
      .map((a) => String((a as PromiseRejectedResult).reason));
    assert.deepEqual(failures, [], 'no request in flight was cut');
    for (const a of answered) {
      const { status, text } = (a as PromiseFulfilledResult<{ status: number; text: string }>).value;
      assert.ok(
        status === 200 || (status === 503 && JSON.parse(text).error.code === 'rate_limited'),
        `${status} ${text}`,
      );
    }
    assert.ok(
      answered.some((a) => (a as PromiseFulfilledResult<{ status: number }>).value.status === 200),
      'requests were in flight when the signal came',
    );
  });
});
