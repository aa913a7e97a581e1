import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Answer, assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide, salesPageOf } from '../helpers/fixtures.ts';

for (const { dialect, skip } of await testDialects()) {
  describe(`two editors of one sales page (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });
    const { apis } = suite;

    it('racing saves with the same expectedUpdatedAt: one wins, the other gets stale_editor and writes nothing', async () => {
      const productId = await newGuide(apis.rest, 'Race');
      // A second key of the same creator, as a second assistant would hold.
      const other = apiFor(suite.h, 'rest', suite.h.alice.publishKey);
      try {
        let expectedUpdatedAt: number | null = null; // the first round races for the first save
        for (let round = 0; round < 8; round++) {
          const [a, b]: [Answer, Answer] = await Promise.all([
            apis.mcp.call('save_sales_page_draft', { productId, expectedUpdatedAt, headline: `A${round}` }),
            other.call('save_sales_page_draft', { productId, expectedUpdatedAt, promise: `B${round}` }),
          ]);
          const winners = [a, b].filter((x) => x.ok);
          assert.equal(winners.length, 1, `exactly one wins: ${JSON.stringify([a.body, b.body])}`);
          assertError(a.ok ? b : a, 'stale_editor');
          const { draft } = await salesPageOf(apis.rest, productId);
          assert.deepEqual(draft, winners[0]!.body.draft, "the loser's save left no trace");
          if (expectedUpdatedAt !== null) assert.ok(draft.updatedAt > expectedUpdatedAt);
          expectedUpdatedAt = draft.updatedAt;
        }
      } finally {
        await other.close();
      }
    });

    it('without expectedUpdatedAt, saves queue and the last one stands; updatedAt rises on each', async () => {
      const productId = await newGuide(apis.rest, 'Queue');
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => apis.rest.call('save_sales_page_draft', { productId, headline: `N${i}` })),
      );
      for (const a of answers) assertOk(a);
      const stamps = answers.map((a) => a.body.draft.updatedAt).sort((x, y) => x - y);
      assert.equal(new Set(stamps).size, 6, 'every save has its own updatedAt, even in one millisecond');
      const last = answers.find((a) => a.body.draft.updatedAt === stamps.at(-1));
      assert.equal((await salesPageOf(apis.rest, productId)).draft.headline, last?.body.draft.headline);
    });
  });
}
