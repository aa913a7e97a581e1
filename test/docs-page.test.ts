import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { browserSkip, useBrowser } from './helpers/browser.ts';
import { type Harness, startServer } from './helpers/harness.ts';

/** Every absolute URL in a text whose host is not this machine. */
function outsideUrls(text: string): string[] {
  return [...text.matchAll(/\b(?:https?:)?\/\/([\w.-]+|\[[\w:]+\])/gi)]
    .filter((m) => !['127.0.0.1', 'localhost', '[::1]'].includes((m[1] as string).toLowerCase()))
    .map((m) => m[0]);
}

/** The src and href attributes of a page. */
function references(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
}

/** The operationIds of the OpenAPI document, the way the reference page lists them. */
async function operationIds(h: Harness): Promise<string[]> {
  const doc = (await (await fetch(`${h.baseUrl}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  return Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
}

describe('API reference page at /docs', () => {
  let h: Harness;
  before(async () => {
    h = await startServer();
  });
  after(() => h.close());

  it('is served without a key, at /docs and /docs/, and names no outside host', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await fetch(h.origin + path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const html = await res.text();
      assert.deepEqual(outsideUrls(html), [], `${path} names an outside host`);
      const refs = references(html);
      assert.ok(refs.length >= 4, `${path}: ${refs.join(', ')}`);
      for (const ref of refs) assert.match(ref, /^\/docs\/assets\//, `${path} loads ${ref} from elsewhere`);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.deepEqual(outsideUrls(csp), [], 'the page may fetch from no outside host');
    }
  });

  it('serves every asset the page names, cached for good; the viewer reads our OpenAPI document', async () => {
    const html = await (await fetch(`${h.origin}/docs`)).text();
    const kinds = new Map<string, string>();
    for (const ref of references(html)) {
      const res = await fetch(h.origin + ref);
      assert.equal(res.status, 200, ref);
      assert.match(res.headers.get('cache-control') ?? '', /max-age=31536000/);
      const type = res.headers.get('content-type') ?? '';
      kinds.set(ref.split('/').pop() as string, type);
      if (ref.endsWith('/init.js')) {
        const config = await res.text();
        assert.deepEqual(outsideUrls(config), [], 'the viewer config names an outside host');
        assert.match(config, /"url":"\/api\/v1\/openapi\.json"/);
        assert.match(config, /"validatorUrl":null/);
      } else {
        assert.ok((await res.arrayBuffer()).byteLength > 0, ref);
      }
    }
    assert.match(kinds.get('swagger-ui-bundle.js') ?? '', /^text\/javascript/);
    assert.match(kinds.get('swagger-ui.css') ?? '', /^text\/css/);
    assert.match(kinds.get('init.js') ?? '', /^text\/javascript/);
  });

  it('sends scripts gzipped to a browser that accepts it, the same bytes', async () => {
    const html = await (await fetch(`${h.origin}/docs`)).text();
    const bundle = references(html).find((r) => r.endsWith('swagger-ui-bundle.js')) as string;
    const plain = Buffer.from(
      await (await fetch(h.origin + bundle, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer(),
    );
    // node:http, unlike fetch, leaves the body as sent.
    const zipped = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      request(h.origin + bundle, { headers: { 'accept-encoding': 'gzip, br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(zipped.encoding, 'gzip');
    assert.ok(zipped.body.length < plain.length / 2, `${zipped.body.length} of ${plain.length}`);
    assert.deepEqual(gunzipSync(zipped.body), plain);
  });

  it('answers an unknown asset with the not_found envelope', async () => {
    const html = await (await fetch(`${h.origin}/docs`)).text();
    const bundle = references(html).find((r) => r.endsWith('swagger-ui-bundle.js')) as string;
    for (const path of [bundle.replace('swagger-ui-bundle.js', 'package.json'), '/docs/assets/0.0.0/init.js']) {
      const res = await fetch(h.origin + path);
      assert.equal(res.status, 404, path);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found');
    }
  });
});

describe('API reference page in Chromium', { skip: browserSkip() }, () => {
  const suite = useBrowser();

  it('renders every operation from local assets only', async () => {
    const { h, browser } = suite;
    const ids = await operationIds(h);
    assert.ok(ids.length >= 30, `${ids.length} operations`);
    const b = await browser.newPage();
    await b.page.goto(`${h.origin}/docs`);
    // The viewer fetches the document and renders one block per operation.
    // A locator waits from Playwright's own world: the page's policy refuses evaluated strings.
    // The viewer lays out 80-odd operations in a software-rendered browser: 45 s on a loaded
    // 2-core machine, where 20 s timed out.
    await b.page
      .locator('.opblock')
      .nth(ids.length - 1)
      .waitFor({ timeout: 90_000 });
    const shot = await b.screenshot('docs-page');

    const shown = await b.page.locator('.opblock-summary-operation-id').filter({ visible: true }).allTextContents();
    assert.deepEqual(shown.map((s) => s.trim()).sort(), [...ids].sort(), `screenshot: ${shot}`);
    const createGuide = b.page.locator('.opblock', { hasText: 'create_guide' });
    assert.equal(await createGuide.count(), 1);
    assert.ok(await createGuide.getByText('Create a guide').isVisible());

    assert.deepEqual(b.outside, [], 'the page asked for something outside this machine');
    const origin = new URL(h.origin);
    for (const url of b.requests) assert.equal(new URL(url).host, origin.host, url);
    assert.ok(b.requests.includes(`${h.baseUrl}/openapi.json`), b.requests.join('\n'));
    assert.deepEqual(b.errors, []);
  });

  it('the harness records and aborts a request to another host', async () => {
    const { h, browser } = suite;
    const b = await browser.newPage();
    await b.page.goto(`${h.origin}/healthz`);
    const answered = await b.page.evaluate(`fetch('http://example.com/x.js').then(() => true, () => false)`);
    assert.equal(answered, false);
    assert.deepEqual(b.outside, ['http://example.com/x.js']);
  });
});
