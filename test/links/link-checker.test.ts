import assert from 'node:assert/strict';
import { type AddressInfo, createServer } from 'node:net';
import { describe, it } from 'node:test';
import { answer, checkerFor, clock, type Handler, serve } from '../helpers/local-servers.ts';

/** Redirects /hop/N to /hop/N-1 until /hop/0, which answers 200. */
const chain: Handler = (req, res) => {
  const n = Number(req.url?.split('/')[2]);
  if (n > 0) res.writeHead(302, { location: `/hop/${n - 1}` }).end();
  else res.writeHead(200).end('arrived');
};

describe('link checks against local servers', () => {
  it('a page that answers 200 is ok, checked with one HEAD, stamped by the clock', async () => {
    const site = await serve(answer(200));
    clock.set('2026-11-23T10:15:00Z');
    const result = await checkerFor([site]).check(`${site.origin}/page`);
    assert.deepEqual(result, {
      url: `${site.origin}/page`,
      status: 'ok',
      httpStatus: 200,
      finalUrl: `${site.origin}/page`,
      checkedAt: '2026-11-23T10:15:00.000Z',
      error: null,
    });
    assert.deepEqual(site.requests, [{ method: 'HEAD', url: '/page' }]);
  });

  for (const refused of [405, 501, 403]) {
    it(`a HEAD refused with ${refused} is tried again with GET`, async () => {
      const site = await serve((req, res) => res.writeHead(req.method === 'HEAD' ? refused : 200).end());
      const result = await checkerFor([site]).check(`${site.origin}/`);
      assert.equal(result.status, 'ok');
      assert.equal(result.httpStatus, 200);
      assert.deepEqual(
        site.requests.map((r) => r.method),
        ['HEAD', 'GET'],
      );
    });
  }

  for (const status of [404, 410, 500, 503]) {
    it(`HTTP ${status} is broken`, async () => {
      const site = await serve(answer(status));
      const result = await checkerFor([site]).check(`${site.origin}/gone`);
      assert.equal(result.status, 'broken');
      assert.equal(result.httpStatus, status);
      assert.equal(result.error, `The page answered HTTP ${status}.`);
    });
  }

  it('five redirects are followed: redirected, with the final URL', async () => {
    const site = await serve(chain);
    const result = await checkerFor([site]).check(`${site.origin}/hop/5`);
    assert.equal(result.status, 'redirected');
    assert.equal(result.httpStatus, 200);
    assert.equal(result.finalUrl, `${site.origin}/hop/0`);
    assert.equal(result.error, null);
    assert.equal(site.requests.length, 6);
  });

  it('a sixth redirect is broken, and is not followed', async () => {
    const site = await serve(chain);
    const result = await checkerFor([site]).check(`${site.origin}/hop/6`);
    assert.equal(result.status, 'broken');
    assert.equal(result.httpStatus, 302);
    assert.match(result.error ?? '', /more than 5 times/);
    // HEAD and then GET each stop after six requests; /hop/0 is never asked for.
    assert.ok(!site.requests.some((r) => r.url === '/hop/0'));
  });

  it('a redirect loop is broken', async () => {
    const site = await serve((req, res) => res.writeHead(301, { location: req.url === '/a' ? '/b' : '/a' }).end());
    const result = await checkerFor([site]).check(`${site.origin}/a`);
    assert.equal(result.status, 'broken');
    assert.match(result.error ?? '', /loop/);
    assert.equal(site.requests.length, 2);
  });

  it('a redirect across servers is followed, each hop checked', async () => {
    const target = await serve(answer(200));
    const start = await serve(answer(308, `${target.origin}/new`));
    const result = await checkerFor([start, target]).check(`${start.origin}/old`);
    assert.equal(result.status, 'redirected');
    assert.equal(result.finalUrl, `${target.origin}/new`);
  });

  it('a redirect without a Location is broken', async () => {
    const site = await serve(answer(302));
    const result = await checkerFor([site]).check(`${site.origin}/`);
    assert.equal(result.status, 'broken');
    assert.equal(result.httpStatus, 302);
  });

  it('a server that never answers is an error after the headers timeout', async () => {
    const site = await serve(() => {});
    const started = Date.now();
    const result = await checkerFor([site], { headersTimeoutMs: 200 }).check(`${site.origin}/slow`);
    assert.equal(result.status, 'error');
    assert.equal(result.httpStatus, null);
    assert.match(result.error ?? '', /did not answer in time/);
    assert.ok(Date.now() - started < 2_000);
  });

  it('the whole check has its own timeout', async () => {
    const site = await serve(() => {});
    const started = Date.now();
    const result = await checkerFor([site], { totalTimeoutMs: 250 }).check(`${site.origin}/slow`);
    assert.equal(result.status, 'error');
    assert.match(result.error ?? '', /did not answer in time/);
    assert.ok(Date.now() - started < 2_000);
  });

  it('a name lookup that hangs is an error after the connect timeout', async () => {
    const lookup = () => new Promise<never>(() => {});
    const started = Date.now();
    const result = await checkerFor([], { lookup, connectTimeoutMs: 200 }).check('http://stuck.example/');
    assert.equal(result.status, 'error');
    assert.match(result.error ?? '', /did not answer in time/);
    assert.ok(Date.now() - started < 2_000);
  });

  it('an endless body is read up to the size cap, then the connection is dropped', async () => {
    let written = 0;
    let finished = false;
    const site = await serve((req, res) => {
      if (req.method === 'HEAD') return void res.writeHead(405).end();
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => {
        finished = res.writableFinished;
      });
      pump();
    });
    const result = await checkerFor([site], { maxBodyBytes: 64 * 1024 }).check(`${site.origin}/huge`);
    assert.equal(result.status, 'ok');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(finished, false, 'the server never got to finish its answer');
    // Loopback socket buffers hold a few MB at most; an uncapped read would go on forever.
    assert.ok(written < 64 * 1024 * 1024, `wrote ${written} bytes`);
  });

  it('a body declared larger than the cap is not read at all', async () => {
    const site = await serve((req, res) => {
      if (req.method === 'HEAD') return void res.writeHead(405).end();
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
    });
    const result = await checkerFor([site]).check(`${site.origin}/big`);
    assert.equal(result.status, 'ok');
  });

  it('a batch runs at most 4 checks at once, at most 2 per server', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow: Handler = (_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200).end();
      }, 60);
    };
    const sites = await Promise.all([serve(slow), serve(slow), serve(slow)]);
    const urls = sites.flatMap((s) => [1, 2, 3, 4].map((i) => `${s.origin}/p${i}`));
    const results = await checkerFor(sites).checkAll(urls);
    assert.deepEqual(
      results.map((r) => r.status),
      urls.map(() => 'ok'),
    );
    assert.equal(maxInFlight, 4);
    for (const site of sites) {
      assert.ok(site.maxInFlight <= 2, `${site.maxInFlight} at once on one server`);
    }
  });

  it('a batch answers in the order given and checks a repeated URL once', async () => {
    const site = await serve((req, res) => res.writeHead(req.url === '/missing' ? 404 : 200).end());
    const urls = [`${site.origin}/a`, `${site.origin}/missing`, `${site.origin}/a`, 'not a url'];
    const results = await checkerFor([site]).checkAll(urls);
    assert.deepEqual(
      results.map((r) => [r.url, r.status]),
      [
        [urls[0], 'ok'],
        [urls[1], 'broken'],
        [urls[2], 'ok'],
        ['not a url', 'broken'],
      ],
    );
    assert.equal(site.requests.filter((r) => r.url === '/a').length, 1);
  });

  it('a batch starts no URL after batchTimeoutMs: those it did not reach are left out', async () => {
    const site = await serve((_req, res) => setTimeout(() => res.writeHead(200).end(), 150));
    const urls = [1, 2, 3].map((i) => `${site.origin}/p${i}`);
    const results = await checkerFor([site], { concurrency: 1, batchTimeoutMs: 100 }).checkAll(urls);
    assert.deepEqual(
      results.map((r) => [r.url, r.status]),
      [[urls[0], 'ok']],
    );
    assert.deepEqual(
      site.requests.map((r) => r.url),
      ['/p1'],
    );
  });

  it('a name that does not exist is broken', async () => {
    const lookup = async (hostname: string) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    const result = await checkerFor([], { lookup }).check('https://no-such-name.example/');
    assert.equal(result.status, 'broken');
    assert.match(result.error ?? '', /no-such-name\.example does not exist/);
  });

  it('a refused connection is an error', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const result = await checkerFor([], { testOnlyLoopbackPorts: [port] }).check(`http://127.0.0.1:${port}/`);
    assert.equal(result.status, 'error');
    assert.equal(result.error, 'The server refused the connection.');
  });
});
