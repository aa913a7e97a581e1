import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockingCodes } from '../../src/resources/publishing/readiness.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide } from '../helpers/fixtures.ts';
import type { Harness } from '../helpers/harness.ts';
import { phoneJpeg } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';
import { setAgreement } from './readiness-cases.ts';

/** What a test may leave out of, or add to, a guide that would otherwise publish. */
interface Setup {
  price?: false;
  spot?: false;
  live?: false;
  /** The one thing wrong: runs once the guide stands, before the publish. */
  cause?(h: Harness, api: Api, key: string, guide: { productId: string; spotId?: string }): Promise<void>;
}

/**
 * One cause per gate, and nothing else wrong: each alone must stop publish_changes. A blocking code
 * readiness gains without a row here fails the suite.
 */
const causes: Record<string, Setup> = {
  not_live: { live: false },
  no_price: { price: false },
  no_spots: { spot: false },
  agreement_not_accepted: {
    async cause(h) {
      await setAgreement(h, 0);
    },
  },
  required_property_empty: {
    async cause(_h, api, _key, { productId }) {
      assertOk(
        await api.call('create_property', { productId, label: 'Parking', kind: 'shortLabel', required: true }),
        201,
      );
    },
  },
  photo_without_credit: {
    async cause(h, _api, key, { productId }) {
      const upload = await uploadRaw(h, key, await phoneJpeg(), 'image/jpeg', { productId });
      assert.equal(upload.status, 201, JSON.stringify(upload.body));
    },
  },
  // A draft saved before delete_media took photos out of drafts: the photo's row went alone.
  sales_page_photo_missing: {
    async cause(h, api, key, { productId }) {
      const upload = await uploadRaw(h, key, await phoneJpeg(), 'image/jpeg', { productId, credit: 'Ana Trails' });
      assert.equal(upload.status, 201, JSON.stringify(upload.body));
      const mediaId = upload.body.mediaId as string;
      assertOk(await api.call('save_sales_page_draft', { productId, heroMediaId: mediaId }));
      await h.store.db.deleteFrom('media').where('id', '=', mediaId).execute();
    },
  },
};

for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`each publish gate alone stops publish_changes (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore });

    async function standGuide(api: Api, key: string, name: string, setup: Setup): Promise<string> {
      const productId = await newGuide(api, name);
      if (setup.price !== false) {
        assertOk(await api.call('set_guide_price', { productId, amountMinor: 1500, currency: 'eur' }));
      }
      let spotId: string | undefined;
      if (setup.spot !== false) {
        const spot = await api.call('create_spot', { productId, name: 'Lake', lat: 46.3, lon: 13.9 });
        assertOk(spot, 201);
        spotId = spot.body.spotId;
      }
      if (setup.live !== false) {
        await suite.h.store.db.updateTable('guides').set({ status: 'published' }).where('id', '=', productId).execute();
      }
      await setup.cause?.(suite.h, api, key, { productId, ...(spotId !== undefined && { spotId }) });
      return productId;
    }

    const releaseCount = async (productId: string) =>
      (await suite.h.store.db.selectFrom('releases').select('id').where('guide_id', '=', productId).execute()).length;

    it('every blocking code of readiness has a cause here', () => {
      for (const code of blockingCodes) assert.ok(code in causes, `no single cause of ${code} in this suite`);
      assert.ok(blockingCodes.length >= 5);
    });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        const key = () => suite.h.alice.publishKey;

        it('a guide with no gate open publishes (the control)', async () => {
          const api = apiFor(suite.h, t, key());
          const productId = await standGuide(api, key(), 'Control', {});
          const status = await api.call('get_publish_status', { productId });
          assertOk(status);
          assert.deepEqual(status.body.blocking, []);
          assertOk(await api.call('publish_changes', { productId }));
          assert.equal(await releaseCount(productId), 1);
          await api.close();
        });

        for (const [code, setup] of Object.entries(causes)) {
          it(`${code} alone: refused, the gate named, no release written`, async () => {
            const api = apiFor(suite.h, t, key());
            try {
              const productId = await standGuide(api, key(), `Gate ${code}`, setup);
              const status = await api.call('get_publish_status', { productId });
              assertOk(status);
              assert.deepEqual(
                status.body.blocking.map((g: { code: string }) => g.code),
                [code],
              );
              const refused = await api.call('publish_changes', { productId });
              if (code === 'agreement_not_accepted') {
                // The creator's agreement is checked before the gates, with its own code.
                assertError(refused, 'agreement_outdated');
              } else {
                assertError(refused, 'not_publishable');
                assert.deepEqual(
                  refused.body.error.details.blocking.map((g: { code: string }) => g.code),
                  [code],
                );
              }
              assert.equal(await releaseCount(productId), 0);
            } finally {
              await setAgreement(suite.h, 1);
              await api.close();
            }
          });
        }
      });
    }
  });
}
