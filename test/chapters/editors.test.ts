import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { chaptersOf, newChapter, newGuide } from '../helpers/fixtures.ts';

for (const { dialect, skip } of await testDialects()) {
  describe(`two editors of one chapter (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });
    const { apis } = suite;

    it('racing update_chapter with the same expectedUpdatedAt: one wins, the other gets stale_editor, nothing is lost', async () => {
      const productId = await newGuide(apis.rest, 'Race');
      // A second key of the same creator, as a second assistant would hold.
      const other = apiFor(suite.h, 'rest', suite.h.alice.publishKey);
      try {
        let chapter = await newChapter(apis.rest, productId, { name: 'Start', kind: 'chapter' });
        for (let round = 0; round < 8; round++) {
          const expectedUpdatedAt = chapter.updatedAt;
          const [a, b] = await Promise.all([
            apis.mcp.call('update_chapter', {
              collectionId: chapter.collectionId,
              expectedUpdatedAt,
              name: `A${round}`,
              body: ['from A'],
            }),
            other.call('update_chapter', {
              collectionId: chapter.collectionId,
              expectedUpdatedAt,
              name: `B${round}`,
              description: 'from B',
            }),
          ]);
          const winners = [a, b].filter((x) => x.ok);
          assert.equal(winners.length, 1, `exactly one wins: ${JSON.stringify([a.body, b.body])}`);
          const loser = a.ok ? b : a;
          assertError(loser, 'stale_editor');
          const winner = winners[0]!;
          const [stored] = await chaptersOf(apis.rest, productId);
          assert.deepEqual(stored, winner.body.warnings ? { ...winner.body, warnings: undefined } : winner.body);
          assert.ok(stored.updatedAt > expectedUpdatedAt);
          chapter = stored;
        }
        // The loser reads again, merges and succeeds with the new updatedAt.
        const merged = await other.call('update_chapter', {
          collectionId: chapter.collectionId,
          expectedUpdatedAt: chapter.updatedAt,
          description: 'merged',
        });
        assertOk(merged);
        assert.equal(merged.body.name, chapter.name, "the other editor's name stays");
      } finally {
        await other.close();
      }
    });

    it('without expectedUpdatedAt, writes queue and the last one stands; updatedAt rises on each', async () => {
      const productId = await newGuide(apis.rest, 'Queue');
      const c = await newChapter(apis.rest, productId, { name: 'Q' });
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          apis.rest.call('update_chapter', { collectionId: c.collectionId, name: `N${i}` }),
        ),
      );
      for (const a of answers) assertOk(a);
      const stamps = answers.map((a) => a.body.updatedAt).sort((x, y) => x - y);
      assert.equal(new Set(stamps).size, 6, 'every write has its own updatedAt, even in one millisecond');
      const last = answers.find((a) => a.body.updatedAt === stamps.at(-1));
      assert.equal((await chaptersOf(apis.rest, productId))[0].name, last?.body.name);
    });
  });
}
