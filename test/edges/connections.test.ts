import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { type Harness, startServer } from '../helpers/harness.ts';

/** Slow clients and too many connections, with short settings. */
interface Outcome {
  /** What the server wrote before it closed the connection. */
  received: string;
  /** How long after the start the connection closed. */
  closedAfterMs: number;
}

function open(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Collects what the server sends until it closes the socket (or `limitMs` passes: then fails). */
function untilClosed(socket: Socket, startedAt: number, limitMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${limitMs} ms; received ${JSON.stringify(received)}`));
    }, limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ received, closedAfterMs: Date.now() - startedAt });
    });
  });
}

/** Writes `text` one byte every `everyMs` while the socket is open. */
function trickle(socket: Socket, text: string, everyMs: number): () => void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++] as string);
  }, everyMs);
  return () => clearInterval(timer);
}

function assertTimeoutEnvelope(outcome: Outcome) {
  assert.match(outcome.received, /^HTTP\/1\.1 400 /, outcome.received);
  const body = JSON.parse(outcome.received.slice(outcome.received.indexOf('\r\n\r\n') + 4));
  assert.equal(body.error.code, 'invalid_argument');
  assert.match(body.error.message, /^\(request\): not received within 0\.5 s/);
  assert.equal(typeof body.error.requestId, 'string');
}

describe('a slow client is cut off (REQUEST_TIMEOUT_MS)', () => {
  let h: Harness;
  before(async () => {
    h = await startServer({ env: { REQUEST_TIMEOUT_MS: '500' } });
  });
  after(async () => h?.close());

  test('a body sent one byte at a time is cut off once the request took longer than the timeout', async () => {
    const socket = await open(h.origin);
    const startedAt = Date.now();
    const body = JSON.stringify({ name: 'x'.repeat(80) });
    socket.write(
      `POST /api/v1/guides HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.alice.writeKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    const stop = trickle(socket, body, 50);
    const outcome = await untilClosed(socket, startedAt, 5000);
    stop();
    assert.ok(outcome.closedAfterMs >= 450, `closed after ${outcome.closedAfterMs} ms`);
    assertTimeoutEnvelope(outcome);
  });

  test('headers sent one byte at a time are cut off too', async () => {
    const socket = await open(h.origin);
    const startedAt = Date.now();
    const stop = trickle(
      socket,
      `GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(200)}\r\n\r\n`,
      50,
    );
    const outcome = await untilClosed(socket, startedAt, 5000);
    stop();
    assertTimeoutEnvelope(outcome);
  });

  test('a request sent at once is unaffected, and the connection stays usable', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${h.baseUrl}/me`, { headers: { authorization: `Bearer ${h.alice.readKey}` } });
      assert.equal(res.status, 200);
      await res.text();
    }
  });
});

describe('connections over MAX_CONNECTIONS are closed', () => {
  let h: Harness;
  before(async () => {
    h = await startServer({ env: { MAX_CONNECTIONS: '3' } });
  });
  after(async () => h?.close());

  const request = (socket: Socket) =>
    new Promise<string>((resolve) => {
      let received = '';
      socket.setEncoding('utf8');
      const onData = (chunk: string) => {
        received += chunk;
        if (received.includes('\r\n\r\n')) {
          socket.off('data', onData);
          resolve(received);
        }
      };
      socket.on('data', onData);
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });

  test('the fourth connection is closed without an answer; the three open ones are served', async () => {
    const held = [await open(h.origin), await open(h.origin), await open(h.origin)];
    try {
      for (const socket of held) assert.match(await request(socket), /^HTTP\/1\.1 200 /);
      const extra = await open(h.origin);
      const startedAt = Date.now();
      extra.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      const outcome = await untilClosed(extra, startedAt, 3000);
      assert.equal(outcome.received, '', 'no answer on a connection over the cap');
      // Once one closes, a new connection is served again.
      const first = held.shift() as Socket;
      await new Promise<void>((resolve) => {
        first.once('close', () => resolve());
        first.destroy();
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const next = await open(h.origin);
      held.push(next);
      assert.match(await request(next), /^HTTP\/1\.1 200 /);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});

describe('connection settings are validated', () => {
  test('REQUEST_TIMEOUT_MS, MAX_CONNECTIONS, RATE_LIMIT_AUTH_FAILURES_PER_MINUTE, MCP_DIRECT and REST_EARLY refuse bad values', () => {
    for (const env of [
      { REQUEST_TIMEOUT_MS: 'soon' },
      { REQUEST_TIMEOUT_MS: '10' },
      { MAX_CONNECTIONS: '0' },
      { MAX_CONNECTIONS: '2.5' },
      { RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0' },
      { MCP_DIRECT: 'maybe' },
      { REST_EARLY: 'yes' },
    ]) {
      const [name] = Object.keys(env);
      assert.throws(() => loadConfig(env), new RegExp(`${name}:`), JSON.stringify(env));
    }
    const defaults = loadConfig({});
    assert.equal(defaults.requestTimeoutMs, 30_000);
    assert.equal(defaults.maxConnections, 4096);
    assert.equal(defaults.authFailuresPerMinute, 30);
    assert.equal(defaults.mcpDirect, true);
    assert.equal(loadConfig({ MCP_DIRECT: 'false' }).mcpDirect, false);
    assert.equal(defaults.restEarly, true);
    assert.equal(loadConfig({ REST_EARLY: 'false' }).restEarly, false);
  });
});
