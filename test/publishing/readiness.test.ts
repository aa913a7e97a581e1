import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { type Api, transports, useServer } from '../helpers/api.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { newGuide } from '../helpers/fixtures.ts';
import { flat } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

const TODAY = '2026-11-23';

interface Finding {
  code: string;
  severity: string;
  message: string;
  where: { kind: string; id: string; name: string; field: string };
}

/** get_guide_readiness: each code triggered, then cleared by the fix its message names. */
for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`get_guide_readiness (${name})`, { skip }, () => {
    const suite = useServer({
      dialect,
      blobStore,
      now: `${TODAY}T10:00:00Z`,
      env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' },
    });

    const readiness = async (api: Api, productId: string) => {
      const a = await api.call('get_guide_readiness', { productId });
      assertOk(a);
      return a.body as { ready: boolean; blockingCount: number; warningCount: number; findings: Finding[] };
    };
    const codes = (findings: Finding[]) =>
      findings.map((f) => `${f.code} ${f.severity} ${f.where.kind}:${f.where.name}:${f.where.field}`);

    for (const t of transports) {
      it(`over ${t}: an empty guide is blocked by price and spots; the fixes clear them`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api, 'Empty');
        let r = await readiness(api, productId);
        assert.deepEqual(codes(r.findings), [
          'no_price blocking guide:Empty:price',
          'no_spots blocking guide:Empty:spots',
        ]);
        assert.equal(r.ready, false);
        assert.equal(r.blockingCount, 2);
        assertOk(await api.call('set_guide_price', { productId, amountMinor: 1500, currency: 'eur' }));
        assertOk(await api.call('create_spot', { productId, name: 'Lake', lat: 46.3, lon: 13.9 }), 201);
        r = await readiness(api, productId);
        assert.deepEqual(r.findings, []);
        assert.equal(r.ready, true);
      });

      it(`over ${t}: the agreement not accepted blocks until it is`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api, 'Agreement');
        const creatorId = (
          await suite.h.store.db
            .selectFrom('guides')
            .select('creator_id')
            .where('id', '=', productId)
            .executeTakeFirstOrThrow()
        ).creator_id;
        const setAgreement = (v: number) =>
          suite.h.store.db.updateTable('creators').set({ agreement_accepted: v }).where('id', '=', creatorId).execute();
        await setAgreement(0);
        try {
          assert.ok(
            codes((await readiness(api, productId)).findings).includes(
              'agreement_not_accepted blocking guide:Agreement:agreement',
            ),
          );
        } finally {
          await setAgreement(1);
        }
        assert.ok(!(await readiness(api, productId)).findings.some((f) => f.code === 'agreement_not_accepted'));
      });

      it(`over ${t}: every row check is triggered, and cleared by its fix`, async () => {
        const api = suite.apis[t];
        const productId = await newGuide(api, 'Rows');
        assertOk(await api.call('set_guide_price', { productId, amountMinor: 1500, currency: 'eur' }));
        assertOk(await api.call('set_guide_region', { productId, label: 'Bled', bbox: [13.5, 46.0, 14.5, 46.6] }));
        const prop = await api.call('create_property', {
          productId,
          label: 'Surface',
          kind: 'shortLabel',
          required: true,
        });
        assertOk(prop, 201);
        const key = prop.body.key as string;
        const spot = async (name: string, fields: Record<string, unknown>) => {
          const a = await api.call('create_spot', {
            productId,
            name,
            lat: 46.3,
            lon: 13.9,
            customValues: { [key]: 'Gravel' },
            ...fields,
          });
          assertOk(a, 201);
          return a.body.spotId as string;
        };
        const far = await spot('Far', { lat: 45.0, lon: 13.9 });
        const bare = await spot('Bare', { customValues: {} });
        const fees = await spot('Fees', {
          fees: [
            { label: 'Adult', amount: 10, currency: 'EUR', validUntil: '2026-10-31' },
            { label: 'Child', amount: 5, currency: 'EUR', checkedOn: '2025-11-01' },
          ],
        });
        const hours = await spot('Hours', {
          schedule: { hours: [{ open: '09:00', close: '17:00' }], validUntil: '2026-09-30' },
        });
        const fair = await spot('Fair', {
          schedule: { specialDays: [{ date: '2026-08-01', open: '10:00', close: '22:00' }] },
        });
        const closed = await spot('Closed', {
          status: { state: 'closed', until: '2026-11-01' },
          reviewBy: '2026-11-01',
        });
        const ferry = await api.call('create_facility', {
          productId,
          kind: 'cable_car',
          name: 'Ferry',
          lat: 46.31,
          lon: 13.91,
          transport: { timetableValidUntil: '2026-10-15' },
        });
        assertOk(ferry, 201);
        const chapter = await api.call('create_chapter', { productId, name: 'Empty chapter' });
        assertOk(chapter, 201);
        const upload = await uploadRaw(
          suite.h,
          suite.h.alice.writeKey,
          await flat(40, 30).png().toBuffer(),
          'image/png',
          { productId, spotId: fees },
        );
        assert.equal(upload.status, 201, JSON.stringify(upload.body));
        const mediaId = upload.body.mediaId as string;
        assertOk(await api.call('update_media', { mediaId, takenAt: { lat: 46.4, lon: 13.9, precision: 'gps' } }));

        const r = await readiness(api, productId);
        assert.deepEqual(codes(r.findings).sort(), [
          'chapter_empty warning chapter:Empty chapter:members',
          'event_over warning spot:Fair:schedule.specialDays',
          'fee_expired warning spot:Fees:fees[0]',
          'fee_unchecked warning spot:Fees:fees[1]',
          `photo_far_from_spot warning photo:${mediaId}:takenAt`,
          `photo_without_credit blocking photo:${mediaId}:credit`,
          `required_property_empty blocking spot:Bare:customValues.${key}`,
          'review_due warning spot:Closed:reviewBy',
          'schedule_expired warning spot:Hours:schedule',
          'spot_outside_region warning spot:Far:lat',
          'status_expired warning spot:Closed:status',
          'timetable_expired warning place:Ferry:transport.timetableValidUntil',
        ]);
        assert.equal(r.findings[0]?.severity, 'blocking', 'blocking findings come first');
        assert.equal(r.blockingCount, 2);
        assert.ok(r.findings.every((f) => f.message.length > 20));

        // The fixes each message names.
        assertOk(await api.call('update_spot', { spotId: far, lat: 46.2, lon: 13.9 }));
        assertOk(await api.call('update_spot', { spotId: bare, customValues: { [key]: 'Rock' } }));
        assertOk(
          await api.call('update_spot', {
            spotId: fees,
            fees: [{ label: 'Adult', amount: 12, currency: 'EUR', checkedOn: TODAY }],
          }),
        );
        assertOk(
          await api.call('update_spot', { spotId: hours, schedule: { hours: [{ open: '09:00', close: '17:00' }] } }),
        );
        assertOk(await api.call('update_spot', { spotId: fair, archived: true }));
        assertOk(await api.call('update_spot', { spotId: closed, status: null, reviewBy: '2027-06-01' }));
        assertOk(
          await api.call('update_facility', {
            facilityId: ferry.body.facilityId,
            transport: { timetableValidUntil: '2027-10-15' },
          }),
        );
        assertOk(
          await api.call('set_chapter_members', {
            collectionId: chapter.body.collectionId,
            members: [{ spotKey: 'far' }],
          }),
        );
        assertOk(
          await api.call('update_media', {
            mediaId,
            credit: 'Ana Trails',
            takenAt: { lat: 46.3, lon: 13.91, precision: 'gps' },
          }),
        );
        const cleared = await readiness(api, productId);
        assert.deepEqual(codes(cleared.findings), []);
        assert.equal(cleared.ready, true);
      });
    }
  });
}
