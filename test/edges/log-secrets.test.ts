import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import pino from 'pino';
import { startServer } from '../helpers/harness.ts';

/** No key, session, token or password reaches a log line, whichever part of a request carried it. */
const REFUSED_KEY = 'sk_service_refused-key-never-issued-0001';

/** A request Node's parser refuses: the error it logs holds the raw bytes read, headers included. */
function sendMalformed(origin: string, authorization: string): Promise<void> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\nBad Header\r\n\r\n`);
    });
    socket.on('data', () => {});
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
}

for (const level of ['trace', 'info'] as const) {
  describe(`secrets in the log at level ${level}`, () => {
    test('keys, tokens, sessions and passwords are masked in URLs, headers and echoed errors', async () => {
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(...String(chunk).split('\n').filter(Boolean));
          done();
        },
      });
      const h = await startServer({ logger: pino({ level }, stream) });
      const secrets: string[] = [];
      try {
        const { alice } = h;
        const token = 'tok-4f9a1c2e8b7d6a5f3e2d1c0b9a8f7e6d';
        const password = 'hunter2-correct-horse';
        const session = 'sess-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
        const code = 'oauth-code-77aa88bb99cc';
        secrets.push(alice.readKey, alice.writeKey, alice.publishKey, REFUSED_KEY, token, password, session, code);
        const get = (path: string, headers: Record<string, string> = {}) =>
          fetch(`${h.baseUrl}${path}`, { headers }).then((res) => res.text());

        await get(`/me?api_key=${alice.readKey}`);
        await get(`/me?access_token=${token}&Password=${password}`);
        await get(`/me?q=${alice.publishKey}&auth_code=${code}`);
        await get(`/guides/${alice.publishKey}`);
        await get('/me', { authorization: `Bearer ${alice.writeKey}`, cookie: `session=${session}` });
        await get('/me', { 'x-api-key': alice.publishKey });
        await get('/me', { authorization: `Bearer ${REFUSED_KEY}` });
        await get('/me', { authorization: `Bearer ${alice.readKey}`, 'x-api-key': REFUSED_KEY });
        await fetch(`${h.mcpUrl}?api_key=${alice.readKey}&session=${session}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${REFUSED_KEY}`,
          },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        }).then((res) => res.text());
        await sendMalformed(h.origin, `Bearer ${alice.writeKey}`);
      } finally {
        await h.close();
      }

      // The log was written: the requests are there, with their masked query parameters.
      assert.ok(lines.some((line) => line.includes('incoming request') && line.includes('api_key=')));
      assert.ok(lines.some((line) => line.includes('/guides/')));
      if (level === 'trace') assert.ok(lines.some((line) => line.includes('client error')));
      for (const secret of secrets) {
        const leaked = lines.filter((line) => line.includes(secret));
        assert.deepEqual(leaked, [], `${secret} reached the log`);
      }
    });
  });
}
