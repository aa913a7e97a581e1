import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { compressionCounts } from '../../src/transports/compression.ts';
import { assertError } from '../helpers/answers.ts';
import { apiFor, noRateLimits, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type RawAnswer as Raw, rawCall as raw } from '../helpers/http.ts';

/**
 * A page kept per guide revision is answered with its cursor sealed once per list, filters and
 * creator (core/cursor-seal.ts), its JSON made from the kept page's by swapping the cursor in, and
 * over MCP that JSON escaped once (core/json.ts, transports/mcp-tool-call.ts). What a client
 * receives must be what serializing the answer gives, byte for byte, over REST and both MCP lines,
 * on the first, a middle and the last page; the cursors must read on, and still be refused when
 * changed, sent by another creator or with other filters.
 */

const SPOTS = 12;
const LIMIT = 5;
const MODERN = '2026-07-28';

/** A text JSON.stringify wrote: parsing it and writing it again gives it back unchanged. */
function assertSerialized(text: string, what: string): any {
  const parsed = JSON.parse(text);
  assert.equal(text, JSON.stringify(parsed), `${what} is JSON as JSON.stringify writes it`);
  return parsed;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`kept pages answered with their cursors (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect, env: noRateLimits });
    let productId: string;
    let key: string;

    const spotsUrl = (cursor?: string, query = '') =>
      `${suite.h.baseUrl}/guides/${productId}/spots?limit=${LIMIT}${query}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const restPage = (cursor?: string, headers: Record<string, string> = {}, as = key) =>
      raw(spotsUrl(cursor), 'GET', { authorization: `Bearer ${as}`, ...headers });

    /** list_spots over MCP in the clients' own form, on the 2026-07-28 or the stateless 2025 line. */
    async function mcpPage(era: 'modern' | 'legacy', cursor?: string): Promise<{ message: any; text: string }> {
      const args = { productId, limit: LIMIT, ...(cursor === undefined ? {} : { cursor }) };
      const params =
        era === 'modern'
          ? {
              name: 'list_spots',
              arguments: args,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': MODERN,
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            }
          : { name: 'list_spots', arguments: args };
      const headers: Record<string, string> =
        era === 'modern'
          ? { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'list_spots' }
          : { 'mcp-protocol-version': '2025-11-25' };
      const answer = await raw(
        suite.h.mcpUrl,
        'POST',
        {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        JSON.stringify({ jsonrpc: '2.0', id: era === 'modern' ? 41 : 'call "42"', method: 'tools/call', params }),
      );
      assert.equal(answer.status, 200, answer.text);
      let json = answer.text;
      if (era === 'legacy') {
        assert.ok(json.startsWith('event: message\ndata: ') && json.endsWith('\n\n'), json.slice(0, 80));
        json = json.slice('event: message\ndata: '.length, -2);
      }
      const message = assertSerialized(json, `the ${era} MCP message`);
      assert.equal(message.result.isError, undefined, json.slice(0, 300));
      return { message, text: message.result.content[0].text };
    }

    before(async () => {
      key = suite.h.alice.writeKey;
      const api = suite.apis.rest;
      const guide = await api.call('create_guide', { name: 'Kept pages' });
      productId = guide.body.productId;
      const spots = Array.from({ length: SPOTS }, (_, i) => ({
        spotKey: `spot-${String(i).padStart(2, '0')}`,
        // Text JSON escapes, so that the kept page and the cursor swapped in are escaped alike.
        name: `Café "${i}" \u2028 😀 \\ </script>`,
        lat: 46 + i / 1000,
        lon: 13.8,
        // Pages past the size answers are compressed from.
        description: 'A long way round the lake. '.repeat(40),
      }));
      const upserted = await api.call('upsert_spots', { productId, spots });
      assert.equal(upserted.ok, true, JSON.stringify(upserted.body));
    });

    it('answers every page, read again, in the same bytes over REST and both MCP lines', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const first = await restPage(cursor);
        assert.equal(first.status, 200, first.text);
        const page = assertSerialized(first.text, `REST page ${pages + 1}`);
        const again = await restPage(cursor);
        assert.equal(again.text, first.text, `page ${pages + 1} read again is the same bytes, its cursor too`);
        for (const era of ['modern', 'legacy'] as const) {
          const mcp = await mcpPage(era, cursor);
          assert.equal(mcp.text, first.text, `page ${pages + 1} over MCP (${era}) is REST's body`);
        }
        seen.push(...page.spots.map((s: { spotKey: string }) => s.spotKey));
        assert.equal(page.total, SPOTS);
        assert.equal(Object.keys(page).at(-1), page.nextCursor === undefined ? 'total' : 'nextCursor');
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined);
      assert.equal(pages, Math.ceil(SPOTS / LIMIT), 'a first, a middle and a last page');
      assert.deepEqual(
        seen,
        Array.from({ length: SPOTS }, (_, i) => `spot-${String(i).padStart(2, '0')}`),
      );
    });

    it('compresses a kept page with a cursor once however often it is read', async () => {
      const first = JSON.parse((await restPage()).text);
      const before = compressionCounts.gzip;
      const bodies = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const packed = await restPage(first.nextCursor, { 'accept-encoding': 'gzip' });
        assert.equal(packed.headers['content-encoding'], 'gzip');
        bodies.add(packed.text);
      }
      assert.equal(bodies.size, 1);
      assert.equal(compressionCounts.gzip - before, 1, 'the middle page is compressed once');
    });

    it('still refuses its cursors changed, from another creator or with other filters; reads on after an edit', async () => {
      const { nextCursor } = JSON.parse((await restPage()).text) as { nextCursor: string };
      const at = Math.floor(nextCursor.length / 2);
      const changed = `${nextCursor.slice(0, at)}${nextCursor[at] === 'A' ? 'B' : 'A'}${nextCursor.slice(at + 1)}`;
      const refused = (answer: Raw) =>
        assertError({ status: answer.status, body: JSON.parse(answer.text) }, 'invalid_argument', 'cursor');
      refused(await restPage(changed));
      refused(await restPage(nextCursor, {}, suite.h.bob.writeKey));
      refused(await raw(spotsUrl(nextCursor, '&nameContains=caf'), 'GET', { authorization: `Bearer ${key}` }));
      const bob = apiFor(suite.h, 'mcp', suite.h.bob.writeKey);
      try {
        assertError(
          await bob.call('list_spots', { productId, limit: LIMIT, cursor: nextCursor }),
          'invalid_argument',
          'cursor',
        );
      } finally {
        await bob.close();
      }
      const edited = await suite.apis.rest.call('upsert_spots', {
        productId,
        spots: [{ spotKey: 'spot-00', name: 'Edited', lat: 46, lon: 13.8 }],
      });
      assert.equal(edited.ok, true, JSON.stringify(edited.body));
      const next = JSON.parse((await restPage(nextCursor)).text);
      assert.equal(
        next.spots[0].spotKey,
        `spot-${String(LIMIT).padStart(2, '0')}`,
        'the cursor reads on after an edit',
      );
    });
  });
}
