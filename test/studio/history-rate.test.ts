import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiFor } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { signedInAs } from '../helpers/studio.ts';

/**
 * The History page reads its changes and its releases through two operations, and costs the
 * signed-in browser one call of its rate budget, as one page view, not one per section.
 */

const PER_MINUTE = 3;

for (const { dialect, skip } of await testDialects()) {
  describe(`studio: the History page costs one call (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect, env: { RATE_LIMIT_KEY_PER_MINUTE: String(PER_MINUTE) } });
    });
    after(async () => {
      await h?.close();
    });

    it(`shows ${PER_MINUTE} times a minute with a budget of ${PER_MINUTE}, then answers 429`, async () => {
      const api = apiFor(h, 'rest', h.alice.writeKey);
      const productId = await newGuide(api, 'Viewed often');
      await api.close();
      const alice = await signedInAs(h, h.alice.creatorId);
      const history = `/studio/guides/${productId}/history`;
      for (let view = 1; view <= PER_MINUTE; view++) {
        const page = await alice.get(history);
        assert.equal(page.status, 200, `view ${view}: ${page.text.slice(0, 300)}`);
        assert.match(page.text, /id="releases-heading"/, 'with its releases');
      }
      assert.equal((await alice.get(history)).status, 429);
    });
  });
}
