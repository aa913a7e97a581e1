import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
}

/**
 * One request written as is over a socket: fetch and http.request would normalise the target
 * (absolute-form, doubled slashes, backslashes) that an attacker or a proxy sends.
 */
function rawGet(origin: string, target: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = ''] = text.split('\r\n\r\n', 1);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
  });
}

/** Redirects are built from the path the route matched, never from what else the request line held. */
for (const { dialect, skip } of await testDialects()) {
  describe(`redirects stay on this site (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect });
    });
    after(async () => h?.close());

    it('an absolute-form request for the page with a trailing slash is sent to the path alone', async () => {
      for (const [target, location] of [
        ['http://evil.example/g/alice/lakes/', '/g/alice/lakes'],
        ['http://evil.example/g/alice/lakes/?ref=x', '/g/alice/lakes?ref=x'],
        ['https://evil.example:8443/g/alice/lakes/', '/g/alice/lakes'],
        ['/g/alice/lakes/?ref=x', '/g/alice/lakes?ref=x'],
        ['/g/%2F%2Fevil.example/lakes/', '/g/%2F%2Fevil.example/lakes'],
      ]) {
        const answer = await rawGet(h.origin, target!);
        assert.equal(answer.status, 301, target);
        assert.equal(answer.headers.location, location, target);
      }
    });

    it('no target sends a client to another host', async () => {
      for (const target of [
        '//evil.example/',
        '//evil.example/g/alice/lakes/',
        '/\\evil.example/',
        '/\\evil.example/g/alice/lakes/',
        '/g//evil.example/',
        '/g/\\evil.example/lakes/',
        '/g/alice/%5C%5Cevil.example/',
        'http://evil.example/g/a/b/',
        'http://evil.example//evil.example/g/a/',
        'http://evil.example/\\evil.example/g/a/b/',
      ]) {
        const answer = await rawGet(h.origin, target);
        const location = answer.headers.location;
        if (location === undefined) continue;
        const said = `${target} answers ${answer.status} Location ${location}`;
        assert.match(location, /^\/(?![/\\])/, said);
        // As a browser reads it: a backslash is a slash in http(s) URLs.
        assert.equal(new URL(location, h.origin).host, new URL(h.origin).host, said);
      }
    });
  });
}
