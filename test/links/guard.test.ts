import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Resolver } from '../../src/resources/links/safe-fetch.ts';
import { answer, checkerFor, recordingOpener, serve } from '../helpers/local-servers.ts';

/** A resolver that answers from a table and counts its calls; never asks real DNS. */
function resolverOf(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`no test entry for ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

describe('the address guard: refused targets get not one byte', () => {
  it('refuses 127.0.0.1 on a port not allowed: the server there sees no connection', async () => {
    const allowed = await serve(answer(200));
    const forbidden = await serve(answer(200));
    const checker = checkerFor([allowed]);
    const result = await checker.check(`${forbidden.origin}/secret`);
    assert.equal(result.status, 'blocked');
    assert.match(result.error ?? '', /127\.0\.0\.1 is a loopback address/);
    assert.equal(result.httpStatus, null);
    assert.equal(forbidden.connections, 0);
    // The allowed one is reachable through the same checker, so the refusal is the guard's doing.
    assert.equal((await checker.check(`${allowed.origin}/`)).status, 'ok');
  });

  it('refuses ::1: the server there sees no connection', async () => {
    const forbidden = await serve(answer(200), '::1');
    const checker = checkerFor([]);
    const result = await checker.check(`${forbidden.origin}/`);
    assert.equal(result.status, 'blocked');
    assert.match(result.error ?? '', /::1 is a loopback address/);
    assert.equal(forbidden.connections, 0);
  });

  it('refuses a name that resolves to 127.0.0.1, and the server there sees no connection', async () => {
    const forbidden = await serve(answer(200));
    const lookup = resolverOf({ 'inside.example': ['127.0.0.1'] });
    const checker = checkerFor([], { lookup });
    const result = await checker.check(`http://inside.example:${forbidden.port}/`);
    assert.equal(result.status, 'blocked');
    assert.match(result.error ?? '', /inside\.example \(127\.0\.0\.1\) is a loopback address/);
    assert.deepEqual(lookup.calls, ['inside.example']);
    assert.equal(forbidden.connections, 0);
  });

  const neverConnected: [string, string, RegExp][] = [
    ['10.0.0.1', 'http://10.0.0.1/', /private network/],
    ['169.254.169.254', 'http://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/', /cloud metadata/],
    ['AWS IPv6 metadata', 'http://[fd00:ec2::254]/', /cloud metadata/],
    ['Alibaba metadata', 'http://100.100.100.200/', /cloud metadata/],
    ['a private address with an allowed port number', 'http://192.168.1.1:8080/', /private network/],
    ['a name resolving to 10.0.0.1', 'http://intranet.example/', /intranet\.example \(10\.0\.0\.1\)/],
    ['a name resolving to a public and a private address', 'https://mixed.example/', /mixed\.example \(10\.1\.2\.3\)/],
    ['a name resolving to link-local IPv6', 'https://v6.example/', /link-local/],
  ];
  for (const [title, url, reason] of neverConnected) {
    it(`refuses ${title} before any connect attempt`, async () => {
      const { open, asked } = recordingOpener();
      const lookup = resolverOf({
        'intranet.example': ['10.0.0.1'],
        'mixed.example': ['8.8.8.8', '10.1.2.3'],
        'v6.example': ['fe80::1'],
      });
      // The loopback allowance names 8080 to show it opens loopback only, not private ranges.
      const checker = checkerFor([], { lookup, openSocket: open, testOnlyLoopbackPorts: [8080] });
      const result = await checker.check(url);
      assert.equal(result.status, 'blocked');
      assert.match(result.error ?? '', reason);
      assert.deepEqual(asked, []);
    });
  }

  it('refuses a redirect to a loopback port not allowed: that server sees no connection', async () => {
    const forbidden = await serve(answer(200));
    const start = await serve(answer(302, `http://127.0.0.1:${forbidden.port}/admin`));
    const result = await checkerFor([start]).check(`${start.origin}/go`);
    assert.equal(result.status, 'blocked');
    assert.equal(result.httpStatus, 302);
    assert.equal(result.finalUrl, `http://127.0.0.1:${forbidden.port}/admin`);
    assert.match(result.error ?? '', /loopback/);
    assert.equal(start.requests.length, 1);
    assert.equal(forbidden.connections, 0);
  });

  it('refuses a redirect to the metadata address before any connect attempt', async () => {
    const start = await serve(answer(301, 'http://169.254.169.254/latest/meta-data/iam/'));
    const { open, asked } = recordingOpener();
    const result = await checkerFor([start], { openSocket: open }).check(`${start.origin}/`);
    assert.equal(result.status, 'blocked');
    assert.equal(result.finalUrl, 'http://169.254.169.254/latest/meta-data/iam/');
    assert.deepEqual(asked, ['127.0.0.1']);
  });

  it('refuses a redirect to a name that resolves inside', async () => {
    const start = await serve(answer(307, 'http://inside.example/'));
    const { open, asked } = recordingOpener();
    const lookup = resolverOf({ 'inside.example': ['172.16.5.4'] });
    const result = await checkerFor([start], { openSocket: open, lookup }).check(`${start.origin}/`);
    assert.equal(result.status, 'blocked');
    assert.match(result.error ?? '', /172\.16\.5\.4/);
    assert.deepEqual(asked, ['127.0.0.1']);
  });

  it('connects to the address it checked, never resolving the name again (no DNS rebinding)', async () => {
    // The first answer is public, any later one loopback: a second resolution would be caught here.
    let answers = 0;
    const lookup: Resolver = async () => [{ address: answers++ === 0 ? '8.8.8.8' : '127.0.0.1', family: 4 }];
    const { open, asked } = recordingOpener();
    const result = await checkerFor([], { lookup, openSocket: open }).check('http://rebind.example/');
    // The recording opener refuses 8.8.8.8 without connecting: the check ends as a failed connection.
    assert.equal(result.status, 'error');
    assert.deepEqual(asked, ['8.8.8.8']);
    assert.equal(answers, 1);
  });

  it('a TLS connection goes to the checked address but keeps the name for SNI and the certificate', async () => {
    const lookup: Resolver = async () => [{ address: '8.8.4.4', family: 4 }];
    const { open, asked, servernames } = recordingOpener();
    await checkerFor([], { lookup, openSocket: open }).check('https://secure.example/');
    assert.deepEqual(asked, ['8.8.4.4']);
    assert.deepEqual(servernames, ['secure.example']);
  });

  it('refuses schemes, credentials and browser-refused ports before resolving anything', async () => {
    const lookup = resolverOf({});
    const { open, asked } = recordingOpener();
    const checker = checkerFor([], { lookup, openSocket: open });
    const results = await checker.checkAll([
      'ftp://files.example/a',
      'https://me:pw@site.example/',
      'http://mail.example:25/',
      'file:///etc/passwd',
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['blocked', 'blocked', 'blocked', 'blocked'],
    );
    assert.deepEqual(lookup.calls, []);
    assert.deepEqual(asked, []);
  });
});
