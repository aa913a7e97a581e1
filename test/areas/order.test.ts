import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';

for (const { dialect, skip } of await testDialects()) {
  describe(`area order (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect });
    });
    after(async () => {
      await h?.close();
    });

    it('areas made in the same millisecond list in the order they were made, everywhere', async () => {
      const key = h.alice.writeKey;
      const id = (await rest(h.baseUrl, key, 'POST', '/guides', { name: 'Ordered' })).body.productId as string;
      const names = ['Zeta park', 'Alpha island', 'Mid region', 'Beta reserve', 'Omega city', 'Delta park'];
      for (const name of names) {
        const res = await rest(h.baseUrl, key, 'PUT', `/guides/${id}/areas`, { name });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const listed = (await rest(h.baseUrl, key, 'GET', `/guides/${id}/areas`)).body.areas.map(
        (a: { name: string }) => a.name,
      );
      assert.deepEqual(listed, names);
      const onGuide = (await rest(h.baseUrl, key, 'GET', `/guides/${id}`)).body.areas.map(
        (a: { name: string }) => a.name,
      );
      assert.deepEqual(onGuide, names);
      // Replacing an area keeps its place in the list.
      const second = (await rest(h.baseUrl, key, 'GET', `/guides/${id}/areas`)).body.areas[1].id;
      await rest(h.baseUrl, key, 'PUT', `/guides/${id}/areas`, { areaId: second, name: 'Alpha island, renamed' });
      const after = (await rest(h.baseUrl, key, 'GET', `/guides/${id}/areas`)).body.areas.map(
        (a: { name: string }) => a.name,
      );
      assert.equal(after[1], 'Alpha island, renamed');
    });
  });
}
