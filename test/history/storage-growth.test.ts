import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { assertOk } from '../helpers/answers.ts';
import { type Api, noRateLimits, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide, newSpots, times } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';

/** Bytes the history keeps for a guide's newest change: its rows' keys and before-images. */
async function newestChangeBytes(
  h: Harness,
  productId: string,
): Promise<{ rows: number; bytes: number; before: unknown }> {
  const { rows } = await sql<{ rows: number | string; bytes: number | string | null; before: string | null }>`
    select count(*) as rows, sum(length(r.row_key) + coalesce(length(r.before), 0)) as bytes, max(r.before) as before
    from change_rows r
    where r.change_id = (select id from changes where guide_id = ${productId} order by seq desc limit 1)`.execute(
    h.store.db,
  );
  return {
    rows: Number(rows[0]!.rows),
    bytes: Number(rows[0]!.bytes ?? 0),
    before: JSON.parse(rows[0]!.before ?? 'null'),
  };
}

/** One spot updated: what the history stores for it, on a guide of this many spots. */
async function oneSpotUpdate(h: Harness, api: Api, spots: number): ReturnType<typeof newestChangeBytes> {
  const productId = await newGuide(api, `${spots} spots`);
  await newSpots(
    api,
    productId,
    times(spots, (i) => `spot-${String(i).padStart(4, '0')}`),
  );
  const listed = await api.call('list_spots', { productId, limit: 1 });
  assertOk(listed);
  const spotId = listed.body.spots[0].spotId;
  assertOk(await api.call('update_spot', { spotId, description: 'Reached by the lakeside path.' }));
  assertOk(await api.call('update_spot', { spotId, description: 'Reached by the ferry.' }));
  return newestChangeBytes(h, productId);
}

/**
 * History storage grows with what changed, not with the guide's size (issue 29): updating one spot
 * keeps that spot's before-image, whether the guide holds 40 spots or 4,000; and of an update, only
 * the columns it changed (what an undo puts back), not the whole spot.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`history storage (${dialect})`, { skip }, () => {
    const server = useServer({ dialect, env: noRateLimits });

    it('keeps one before-image for one spot updated, on a 40-spot and a 4,000-spot guide alike', async () => {
      const api = server.apis.rest;
      const small = await oneSpotUpdate(server.h, api, 40);
      const large = await oneSpotUpdate(server.h, api, 4000);
      assert.equal(small.rows, 1, 'the updated spot alone');
      assert.equal(large.rows, 1, 'the updated spot alone');
      assert.deepEqual(small.before, { description: 'Reached by the lakeside path.' }, 'the column it changed');
      assert.deepEqual(large.before, { description: 'Reached by the lakeside path.' }, 'the column it changed');
      // The same spot but for its key's digits: no growth with the guide.
      assert.ok(Math.abs(large.bytes - small.bytes) < 8, `${small.bytes} B against ${large.bytes} B`);
    });
  });
}
