import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { StudioStore } from '../../src/admin/studio.store.ts';
import { assertOk } from '../helpers/answers.ts';
import { apiFor, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { openPage, putOnSale, saleGuide } from '../helpers/sale-guide.ts';

/** The content of one meta tag (by name or property), unescaped as a browser reads it. */
function meta(html: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html);
  return m?.[1]?.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"');
}

/** Attribute or text content as a browser reads it. */
function decodeEntities(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The page's text without markup, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&#39;', "'")
    .replace(/\s+/g, ' ');
}

/** The page as sent to a client accepting one encoding (fetch would decode it). */
function encoded(url: string, encoding: string): Promise<{ encoding: string | undefined; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ encoding: res.headers['content-encoding'] as string | undefined, bytes: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** The sales page buyers open at salesPageUrl: what it shows, when, and how it is served. */
for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`the buyers' page at salesPageUrl (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore });

    it('answers 404 before the first publish, and the same 404 for an unknown creator or guide', async () => {
      const g = await saleGuide(suite.h, suite.apis.rest, 'Not yet on sale');
      const before = await openPage(g.salesPageUrl);
      assert.equal(before.status, 404);
      assert.match(before.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      assert.match(before.text, /<h1>Guide not found<\/h1>/);
      assert.doesNotMatch(before.text, /Slovenian lakes/, 'the draft never shows');
      assert.equal(before.headers.get('cache-control'), 'no-cache');
      await putOnSale(suite.h, g.productId);
      const { pathname } = new URL(g.salesPageUrl);
      const [, , creatorSlug, guideSlug] = pathname.split('/');
      for (const path of [`/g/nobody/${guideSlug}`, `/g/${creatorSlug}/no-such-guide`, '/g/nobody/nothing']) {
        const unknown = await openPage(suite.h.origin + path);
        assert.equal(unknown.status, 404, path);
        assert.equal(unknown.text, before.text, `${path}: the page does not tell which part was wrong`);
      }
    });

    it('a guide on sale shows its release: headline, price, sections, credits, sample spots, map and meta tags', async () => {
      const g = await saleGuide(suite.h, suite.apis.rest);
      await putOnSale(suite.h, g.productId);
      const page = await openPage(g.salesPageUrl);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      const text = textOf(page.text);
      assert.match(page.text, /<html lang="en">/);
      assert.match(page.text, /<h1>Slovenian lakes without the crowds<\/h1>/);
      assert.match(text, /The quiet hours at every lake, and where to park\./);
      assert.match(text, /€29\.00/);
      assert.match(text, /Who it is for/);
      assert.match(page.text, /<ul><li>the first boat times<\/li><li>parking that fills last<\/li><\/ul>/);
      for (const name of ['Ana Novak', 'Marko Kos', 'Eva Zupan']) assert.match(text, new RegExp(`Photo: ${name}`));
      assert.match(text, /Bohinj from the east shore/);
      assert.match(text, /Lake Bled .*Lake Bohinj .*Vintgar Gorge/);
      assert.match(page.text, /<svg [^>]*aria-label="Map of the sample spots"/);
      assert.equal((page.text.match(/<circle class="pin" /g) ?? []).length, 3, 'every sample spot with a pin');
      assert.match(page.text, /<details><summary>Do I need a car\?<\/summary>/);

      assert.equal(meta(page.text, 'description'), 'Quiet hours at Bled, Bohinj and Vintgar.');
      assert.equal(meta(page.text, 'og:title'), 'Slovenian lakes guide');
      assert.match(page.text, /<title>Slovenian lakes guide<\/title>/);
      assert.equal(meta(page.text, 'og:url'), g.salesPageUrl);
      assert.equal(meta(page.text, 'twitter:card'), 'summary_large_image');
      assert.match(page.text, new RegExp(`<link rel="canonical" href="${g.salesPageUrl}">`));
      const image = meta(page.text, 'og:image') ?? '';
      assert.ok(image.startsWith(`${suite.h.origin}/media/`), `og:image is absolute: ${image}`);
      const photo = await fetch(image);
      assert.equal(photo.status, 200, 'og:image is served');
      assert.match(photo.headers.get('content-type') ?? '', /^image\//);

      // Photos load from this service only, sized and lazy below the hero.
      const images = [...page.text.matchAll(/<img ([^>]+)>/g)].map((m) => m[1] as string);
      assert.equal(images.length, 3);
      for (const img of images) {
        assert.match(img, /src="\/media\/[^"]+" srcset="\/media\/\S+ 400w, \/media\/\S+ 1024w, \/media\/\S+ 1600w"/);
        assert.match(img, /width="1024" height="640"/);
      }
      assert.doesNotMatch(images[0] as string, /loading="lazy"/, 'the hero loads at once');
      assert.ok(images.slice(1).every((img) => img.includes('loading="lazy"')));

      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /img-src 'self'/);
      assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
      assert.doesNotMatch(csp, /unsafe|script-src/);
      assert.doesNotMatch(page.text, /<script/i, 'no script at all');
      assert.equal(page.headers.get('cache-control'), 'public, max-age=60');
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    });

    it('the release is immutable: working-copy edits never reach the page until publish_changes', async () => {
      const g = await saleGuide(suite.h, suite.apis.rest, 'Immutable lakes');
      await putOnSale(suite.h, g.productId);
      const first = await openPage(g.salesPageUrl);
      assert.equal(first.status, 200);

      // The draft over REST, the sample spot's name over MCP, the price over REST.
      const rest = suite.apis.rest;
      const draft = (await rest.call('get_sales_page', { productId: g.productId })).body.draft;
      const { updatedAt, ...content } = draft;
      assertOk(
        await rest.call('save_sales_page_draft', {
          ...content,
          productId: g.productId,
          headline: 'Lakes at dawn, edited',
          expectedUpdatedAt: updatedAt,
        }),
      );
      assertOk(await suite.apis.mcp.call('update_spot', { spotId: g.spotIds.bohinj, name: 'Bohinj, renamed' }));
      assertOk(await rest.call('set_guide_price', { productId: g.productId, amountMinor: 3400, currency: 'eur' }));
      const during = await openPage(g.salesPageUrl);
      assert.equal(during.text, first.text, 'the page buyers see did not move');
      assert.equal(during.headers.get('etag'), first.headers.get('etag'));

      const publisher = apiFor(suite.h, 'mcp', suite.h.alice.publishKey);
      try {
        const published = await publisher.call('publish_changes', { productId: g.productId });
        assertOk(published);
        assert.equal(published.body.release.number, 2);
      } finally {
        await publisher.close();
      }
      const after = await openPage(g.salesPageUrl);
      assert.match(after.text, /<h1>Lakes at dawn, edited<\/h1>/);
      assert.match(textOf(after.text), /Bohinj, renamed/);
      assert.match(textOf(after.text), /€34\.00/);
      assert.doesNotMatch(after.text, /Lake Bohinj/);
      assert.notEqual(after.headers.get('etag'), first.headers.get('etag'));
    });

    it('a linked credit shows the name as the link text, with the creditUrl as its href, wherever a photo shows', async () => {
      const g = await saleGuide(suite.h, suite.apis.rest, 'Linked credits');
      const credit = 'Ana & "Trails"';
      const creditUrl = 'https://example.com/a?x=1&y="2"';
      const [spotPhoto] = (await suite.apis.rest.call('list_media', { productId: g.productId, spotId: g.spotIds.bled }))
        .body.media;
      // The hero over REST, the gallery photo and the sample spot's photo over MCP.
      assertOk(await suite.apis.rest.call('update_media', { mediaId: g.hero, credit, creditUrl }));
      for (const mediaId of [g.galleryPhoto, spotPhoto.mediaId]) {
        assertOk(await suite.apis.mcp.call('update_media', { mediaId, credit, creditUrl }));
      }
      await putOnSale(suite.h, g.productId);
      const page = await openPage(g.salesPageUrl);
      assert.equal(page.status, 200);
      const credits = [...page.text.matchAll(/<span class="credit">Photo: (.*?)<\/span>/g)].map((m) => m[1] as string);
      assert.equal(credits.length, 3, 'hero, gallery and sample spot each show their credit');
      for (const shown of credits) {
        const link = /^<a href="([^"]*)" rel="[^"]*">([^<]*)<\/a>$/.exec(shown);
        assert.ok(link, `a link and nothing else after "Photo: ": ${shown}`);
        assert.equal(decodeEntities(link[2] as string), credit, 'the link text is the credit');
        assert.equal(decodeEntities(link[1] as string), creditUrl, 'the href is the creditUrl');
      }
    });

    it('creator text is escaped: a headline with <script> shows as text', async () => {
      const g = await saleGuide(suite.h, suite.apis.rest, 'Escaped lakes');
      const draft = (await suite.apis.rest.call('get_sales_page', { productId: g.productId })).body.draft;
      const { updatedAt: _, ...content } = draft;
      const headline = '<script>alert("x")</script> & "quotes"';
      assertOk(
        await suite.apis.rest.call('save_sales_page_draft', {
          ...content,
          productId: g.productId,
          headline,
          searchTitle: '</title><script>1</script>',
          sections: [{ heading: '<img src=x onerror=alert(1)>', paragraphs: ['- <b>bold?</b>'] }],
        }),
      );
      await putOnSale(suite.h, g.productId);
      const page = await openPage(g.salesPageUrl);
      assert.doesNotMatch(page.text, /<script|<img src=x|<b>/i);
      assert.match(
        page.text,
        /<h1>&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &quot;quotes&quot;<\/h1>/,
      );
      assert.match(page.text, /<title>&lt;\/title&gt;&lt;script&gt;1&lt;\/script&gt;<\/title>/);
      assert.match(page.text, /<li>&lt;b&gt;bold\?&lt;\/b&gt;<\/li>/);
    });

    it('ETag and If-None-Match answer 304; HEAD answers the headers; gzip and br carry the same bytes', async () => {
      const g = await saleGuide(suite.h, suite.apis.rest, 'Cached lakes');
      await putOnSale(suite.h, g.productId);
      const plain = await fetch(g.salesPageUrl, { headers: { 'accept-encoding': 'identity' } });
      const body = Buffer.from(await plain.arrayBuffer());
      const etag = plain.headers.get('etag') ?? '';
      assert.match(etag, /^"[\w-]+"$/);
      const again = await fetch(g.salesPageUrl, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(again.headers.get('vary'), 'Accept-Encoding');
      assert.equal(again.headers.get('cache-control'), 'public, max-age=60');
      assert.equal((await again.arrayBuffer()).byteLength, 0);
      const other = await fetch(g.salesPageUrl, { headers: { 'if-none-match': '"something-else"' } });
      assert.equal(other.status, 200);
      await other.arrayBuffer();

      const head = await fetch(g.salesPageUrl, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(head.headers.get('etag'), etag);
      assert.equal(head.headers.get('content-length'), String(body.length));
      assert.equal((await head.arrayBuffer()).byteLength, 0);

      const slashed = await fetch(`${g.salesPageUrl}/?ref=x`, { redirect: 'manual' });
      assert.equal(slashed.status, 301, 'a trailing slash leads to the page');
      assert.equal(slashed.headers.get('location'), `${new URL(g.salesPageUrl).pathname}?ref=x`);
      await slashed.arrayBuffer();

      const post = await fetch(g.salesPageUrl, { method: 'POST' });
      assert.equal(post.status, 405, 'only GET and HEAD');
      assert.match(post.headers.get('allow') ?? '', /GET/);
      await post.arrayBuffer();

      for (const [encoding, decode] of [
        ['gzip', gunzipSync],
        ['br', brotliDecompressSync],
      ] as const) {
        const sent = await encoded(g.salesPageUrl, encoding);
        assert.equal(sent.encoding, encoding);
        assert.ok(decode(sent.bytes).equals(body), `${encoding} carries the same page`);
      }
    });

    it('a guide taken off sale answers 404 again, though it has releases', async () => {
      const g = await saleGuide(suite.h, suite.apis.rest, 'Archived lakes');
      await putOnSale(suite.h, g.productId);
      assert.equal((await openPage(g.salesPageUrl)).status, 200);
      const studio = new StudioStore({ db: suite.h.store.db, clock: suite.h.clock, dialect: suite.h.store.dialect });
      await studio.setStatus(g.productId, 'archived');
      const off = await openPage(g.salesPageUrl);
      assert.equal(off.status, 404);
      assert.match(off.text, /Guide not found/);
      await studio.setStatus(g.productId, 'published');
      assert.equal((await openPage(g.salesPageUrl)).status, 200, 'back on sale, the release shows again');
    });

    it('a release without a sales page shows a page made from the guide: name, headline, price, spots', async () => {
      const api = suite.apis.mcp;
      const productId = await newGuide(api, 'Bare <Lakes>');
      assertOk(await api.call('update_guide', { productId, headline: 'Just the lakes' }));
      assertOk(await api.call('set_guide_price', { productId, amountMinor: 1200, currency: 'jpy' }));
      assertOk(
        await api.call('upsert_spots', {
          productId,
          spots: [
            { spotKey: 'a', name: 'First lake', lat: 46.3, lon: 14.1, description: 'Clear.' },
            { spotKey: 'b', name: 'Second lake' },
          ],
        }),
      );
      await putOnSale(suite.h, productId);
      const url = (await api.call('get_guide', { productId })).body.salesPageUrl as string;
      const page = await openPage(url);
      assert.equal(page.status, 200);
      const text = textOf(page.text);
      assert.match(page.text, /<h1>Bare &lt;Lakes&gt;<\/h1>/);
      assert.match(page.text, /<title>Bare &lt;Lakes&gt;<\/title>/);
      assert.equal(meta(page.text, 'description'), 'Just the lakes');
      assert.match(text, /¥1,200/, 'a currency without minor units');
      assert.match(text, /First lake .*Clear\. .*Second lake/);
      assert.match(text, /2 spots/);
      assert.equal((page.text.match(/<circle class="pin" /g) ?? []).length, 1, 'only spots with a pin are on the map');
      assert.equal(meta(page.text, 'og:image'), undefined, 'no photo, no preview image');
      assert.equal(meta(page.text, 'twitter:card'), 'summary');
    });
  });
}
