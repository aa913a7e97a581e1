import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStores } from '../../src/resources/index.ts';
import { imageOf } from '../../src/resources/publishing/release-image.ts';
import type { ImageRows } from '../../src/resources/publishing/working-copy.store.ts';
import { compareWithImage } from '../../src/resources/publishing/working-image.ts';
import { assertOk } from '../helpers/answers.ts';
import { useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { putOnSale, saleGuide } from '../helpers/sale-guide.ts';

/**
 * The working copy compared with a release's image as a restore and get_release compare them: only
 * the rows that differ from the image's come out of the store, as their text; a row the same byte
 * for byte is only named (WorkingCopyStore.differingRows).
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`a release's image against the working copy (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    it('brings out the rows that differ and only those, non-ASCII text included', async () => {
      const { h } = suite;
      const api = suite.apis.rest;
      const guide = await saleGuide(h, api, 'Jezera – lakes');
      const bled = guide.spotIds.bled!;
      assertOk(await api.call('update_spot', { spotId: bled, description: 'Otok ob zori – čolni še spijo. 🚣' }));
      await putOnSale(h, guide.productId);
      const bohinj = guide.spotIds.bohinj!;
      const vintgar = guide.spotIds.vintgar!;
      assertOk(await api.call('update_spot', { spotId: bohinj, name: 'Bohinjsko jezero – čez most' }));
      assertOk(await api.call('delete_spot', { spotId: vintgar }));
      const added = await api.call('create_spot', {
        productId: guide.productId,
        name: 'Slap Savica',
        lat: 46.29,
        lon: 13.8,
      });
      assertOk(added, 201);

      const stores = createStores()({ db: h.store.db, clock: h.clock, dialect: h.store.dialect });
      const { id: releaseId } = await h.store.db
        .selectFrom('releases')
        .select('id')
        .where('guide_id', '=', guide.productId)
        .where('number', '=', 1)
        .executeTakeFirstOrThrow();
      const image = await imageOf(stores, releaseId);
      assert.ok(image, 'release 1 kept an image');
      const tables = await stores.workingCopy.tables();
      const spots = tables.find((t) => t.name === 'spots')!;
      const kept = image.tables.get('spots') as ImageRows;
      assert.ok(kept instanceof Map && kept.size === 3, 'the image keeps the three spots by key');

      const now = await stores.workingCopy.differingRows(tables, spots, guide.productId, kept);
      assert.ok(now);
      const byId = (id: string) => [...now].find(([key]) => (JSON.parse(key) as unknown[]).includes(id));
      assert.equal(byId(bled)?.[1], null, 'an unchanged spot, its text not ASCII, is named, not brought out');
      assert.equal(JSON.parse(byId(bohinj)?.[1] ?? '{}').name, 'Bohinjsko jezero – čez most');
      assert.equal(JSON.parse(byId(added.body.spotId)?.[1] ?? '{}').name, 'Slap Savica', 'a spot since is brought out');
      assert.equal(byId(vintgar), undefined, 'a spot deleted since is not there');
      assert.equal(now.size, 3);

      const everything = await stores.workingCopy.differingRows(tables, spots, guide.productId, new Map());
      assert.ok(
        [...(everything?.values() ?? [])].every((text) => typeof text === 'string'),
        'nothing held: all out',
      );

      const diffs = await compareWithImage(stores.workingCopy, guide.productId, tables, image);
      const spotDiff = diffs.find((d) => d.table.name === 'spots');
      assert.deepEqual(
        {
          extra: spotDiff?.extra.map((r) => r.name),
          missing: spotDiff?.missing.map((r) => r.name),
          changed: spotDiff?.changed.map((r) => r.name),
        },
        { extra: ['Slap Savica'], missing: ['Vintgar Gorge'], changed: ['Lake Bohinj'] },
        'changed rows as the image kept them',
      );
    });
  });
}
