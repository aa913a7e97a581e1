import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompiledQuery } from 'kysely';
import { useServer } from '../helpers/api.ts';
import { rest } from '../helpers/http.ts';

/**
 * A spot list's total is counted again after every write to its guide. On SQLite the count runs on
 * the event loop, so it must come from an index alone: read from the rows, it took 15-22 ms for
 * 4,000 full spots, which every other call waited for (docs/decisions/performance.md).
 */
describe('the spot total (sqlite)', () => {
  const suite = useServer({ dialect: 'sqlite' });

  it('is counted from an index, without reading the spots', async () => {
    const { h } = suite;
    const key = h.alice.writeKey;
    const { productId } = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Totals' })).body;
    const spots = [1, 2, 3].map((i) => ({ spotKey: `s${i}`, name: `Spot ${i}`, lat: 46, lon: 13.8 }));
    assert.equal((await rest(h.baseUrl, key, 'POST', `/guides/${productId}/spots/batch`, { spots })).status, 200);
    const statements: string[] = [];
    const detach = h.store.probe.attach({
      statement(text) {
        statements.push(text);
        return () => {};
      },
    });
    try {
      // A page short of the list, so that the total is counted rather than taken from the page.
      const page = await rest(h.baseUrl, key, 'GET', `/guides/${productId}/spots?limit=1`);
      assert.equal(page.body.total, 3);
    } finally {
      detach();
    }
    const counts = statements.filter((text) => /count\(\*\)/i.test(text) && /"spots"/.test(text));
    assert.equal(counts.length, 1, statements.join('\n'));
    const plan = await h.store.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${counts[0]}`),
    );
    const detail = plan.rows.map((row) => row.detail).join('\n');
    assert.match(detail, /USING COVERING INDEX spots_guide_archived/, detail);
  });
});
