import assert from 'node:assert/strict';
import type { FindingCode, FindingKind } from '../../src/resources/publishing/readiness.ts';
import { assertOk } from '../helpers/answers.ts';
import type { Api } from '../helpers/api.ts';
import type { Harness } from '../helpers/harness.ts';
import { flat } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

export const TODAY = '2026-11-23';

/** What a case works on: a guide with a price and one spot buyers can open, inside its region. */
export interface Stand {
  h: Harness;
  api: Api;
  /** A write key, for the REST uploads. */
  key: string;
  productId: string;
  spotId: string;
  spotKey: string;
  /** A link address a local server answers 404 for (the checker may reach it). */
  goneUrl: string;
}

/** One rule's smallest cause on a guide that is otherwise ready, and the fix its message names. */
export interface RuleCase {
  /** Leaves the price off the standing guide. */
  noPrice?: true;
  /** The record the findings point at, and the field. */
  where: { kind: FindingKind; field: RegExp };
  /** Makes the one thing wrong; answers what the fix needs. */
  cause(s: Stand): Promise<Record<string, string>>;
  fix(s: Stand, made: Record<string, string>): Promise<void>;
}

const call = async (api: Api, name: string, args: Record<string, unknown>, status = 200) => {
  const a = await api.call(name, args);
  assertOk(a, status);
  return a.body;
};

async function upload(s: Stand, fields: Record<string, unknown> = {}): Promise<string> {
  const photo = await flat(40, 30).png().toBuffer();
  const a = await uploadRaw(s.h, s.key, photo, 'image/png', { productId: s.productId, spotId: s.spotId, ...fields });
  assert.equal(a.status, 201, JSON.stringify(a.body));
  return a.body.mediaId as string;
}

/** Alice's agreement accepted (1) or not (0): what the studio records when she accepts it. */
export const setAgreement = (h: Harness, accepted: 0 | 1) =>
  h.store.db
    .updateTable('creators')
    .set({ agreement_accepted: accepted })
    .where('id', '=', h.alice.creatorId)
    .execute();

const updateSpot = (s: Stand, fields: Record<string, unknown>) =>
  call(s.api, 'update_spot', { spotId: s.spotId, ...fields });

/**
 * Every rule's case, by code: the suite fails when a rule has none. Each cause is the smallest
 * change to a ready guide that trips its rule alone; each fix is what the finding's message says.
 */
export const ruleCases: Record<FindingCode, RuleCase> = {
  agreement_not_accepted: {
    where: { kind: 'guide', field: /^agreement$/ },
    async cause(s) {
      await setAgreement(s.h, 0);
      return {};
    },
    // The creator accepts it in the studio; the test stands in for the studio.
    async fix(s) {
      await setAgreement(s.h, 1);
    },
  },
  no_price: {
    noPrice: true,
    where: { kind: 'guide', field: /^price$/ },
    cause: async () => ({}),
    async fix(s) {
      await call(s.api, 'set_guide_price', { productId: s.productId, amountMinor: 1500, currency: 'eur' });
    },
  },
  no_spots: {
    where: { kind: 'guide', field: /^spots$/ },
    async cause(s) {
      await updateSpot(s, { archived: true });
      return {};
    },
    async fix(s) {
      await updateSpot(s, { archived: false });
    },
  },
  required_property_empty: {
    where: { kind: 'spot', field: /^customValues\./ },
    async cause(s) {
      const prop = await call(
        s.api,
        'create_property',
        { productId: s.productId, label: 'Surface', kind: 'shortLabel', required: true },
        201,
      );
      return { key: prop.key };
    },
    async fix(s, { key }) {
      await updateSpot(s, { customValues: { [key as string]: 'Gravel' } });
    },
  },
  photo_without_credit: {
    where: { kind: 'photo', field: /^credit$/ },
    cause: async (s) => ({ mediaId: await upload(s) }),
    async fix(s, { mediaId }) {
      await call(s.api, 'update_media', { mediaId, credit: 'Ana Trails' });
    },
  },
  sales_page_photo_missing: {
    where: { kind: 'guide', field: /^salesPage\.gallery\[0\]\.mediaId$/ },
    // A draft saved before delete_media took its photos out of drafts: the photo's row went alone.
    async cause(s) {
      const mediaId = await upload(s, { credit: 'Ana Trails' });
      await call(s.api, 'save_sales_page_draft', { productId: s.productId, gallery: [{ mediaId }] });
      await s.h.store.db.deleteFrom('media').where('id', '=', mediaId).execute();
      return {};
    },
    // The playbook's way: read the draft and send it back whole.
    async fix(s) {
      const { draft } = await call(s.api, 'get_sales_page', { productId: s.productId });
      const { updatedAt, ...content } = draft as Record<string, unknown>;
      const saved = await call(s.api, 'save_sales_page_draft', {
        productId: s.productId,
        ...content,
        expectedUpdatedAt: updatedAt,
      });
      assert.match(String(saved.warnings), /gallery\[0\]\.mediaId: this photo was deleted since/);
    },
  },
  spot_outside_region: {
    where: { kind: 'spot', field: /^lat$/ },
    async cause(s) {
      await call(s.api, 'set_guide_region', { productId: s.productId, label: 'East', bbox: [14.5, 46.0, 15.0, 46.6] });
      return {};
    },
    async fix(s) {
      await call(s.api, 'set_guide_region', { productId: s.productId, label: 'Bled', bbox: [13.5, 46.0, 15.0, 46.6] });
    },
  },
  photo_far_from_spot: {
    where: { kind: 'photo', field: /^takenAt$/ },
    async cause(s) {
      const mediaId = await upload(s, { credit: 'Ana Trails' });
      await call(s.api, 'update_media', { mediaId, takenAt: { lat: 46.4, lon: 13.9, precision: 'gps' } });
      return { mediaId };
    },
    // The photo shows the lake from the ridge: said so, the distance is explained.
    async fix(s, { mediaId }) {
      await call(s.api, 'update_media', { mediaId, shows: { kind: 'view_from_spot', label: 'From the ridge' } });
    },
  },
  fee_expired: {
    where: { kind: 'spot', field: /^fees\[0\]$/ },
    async cause(s) {
      await updateSpot(s, {
        fees: [{ label: 'Adult', amount: 10, currency: 'EUR', validUntil: '2026-10-31', checkedOn: '2026-10-01' }],
      });
      return {};
    },
    async fix(s) {
      await updateSpot(s, {
        fees: [{ label: 'Adult', amount: 12, currency: 'EUR', validUntil: '2027-10-31', checkedOn: TODAY }],
      });
    },
  },
  fee_unchecked: {
    where: { kind: 'spot', field: /^fees\[[01]\]$/ },
    async cause(s) {
      // One never checked, one checked more than a year ago.
      await updateSpot(s, {
        fees: [
          { label: 'Adult', amount: 10, currency: 'EUR' },
          { label: 'Child', amount: 5, currency: 'EUR', checkedOn: '2025-11-01' },
        ],
      });
      return {};
    },
    async fix(s) {
      await updateSpot(s, {
        fees: [
          { label: 'Adult', amount: 10, currency: 'EUR', checkedOn: TODAY },
          { label: 'Child', amount: 5, currency: 'EUR', checkedOn: TODAY },
        ],
      });
    },
  },
  status_expired: {
    where: { kind: 'spot', field: /^status$/ },
    async cause(s) {
      await updateSpot(s, { status: { state: 'closed', until: '2026-11-01' } });
      return {};
    },
    async fix(s) {
      await updateSpot(s, { status: null });
    },
  },
  schedule_expired: {
    where: { kind: 'spot', field: /^schedule$/ },
    async cause(s) {
      await updateSpot(s, { schedule: { hours: [{ open: '09:00', close: '17:00' }], validUntil: '2026-09-30' } });
      return {};
    },
    async fix(s) {
      await updateSpot(s, { schedule: { hours: [{ open: '09:00', close: '18:00' }], checkedOn: TODAY } });
    },
  },
  event_over: {
    where: { kind: 'spot', field: /^schedule\.specialDays$/ },
    async cause(s) {
      await updateSpot(s, { schedule: { specialDays: [{ date: '2026-08-01', open: '10:00', close: '22:00' }] } });
      return {};
    },
    async fix(s) {
      await updateSpot(s, {
        schedule: {
          specialDays: [
            { date: '2026-08-01', open: '10:00', close: '22:00' },
            { date: '2027-08-01', open: '10:00', close: '22:00' },
          ],
        },
      });
    },
  },
  timetable_expired: {
    where: { kind: 'place', field: /^transport\.timetableValidUntil$/ },
    async cause(s) {
      const ferry = await call(
        s.api,
        'create_facility',
        {
          productId: s.productId,
          kind: 'cable_car',
          name: 'Ferry',
          lat: 46.31,
          lon: 13.91,
          transport: { timetableValidUntil: '2026-10-15' },
        },
        201,
      );
      return { facilityId: ferry.facilityId };
    },
    async fix(s, { facilityId }) {
      await call(s.api, 'update_facility', { facilityId, transport: { timetableValidUntil: '2027-10-15' } });
    },
  },
  review_due: {
    where: { kind: 'spot', field: /^reviewBy$/ },
    async cause(s) {
      await updateSpot(s, { reviewBy: '2026-11-01' });
      return {};
    },
    async fix(s) {
      await updateSpot(s, { reviewBy: '2027-06-01' });
    },
  },
  chapter_empty: {
    where: { kind: 'chapter', field: /^members$/ },
    async cause(s) {
      const chapter = await call(s.api, 'create_chapter', { productId: s.productId, name: 'Best views' }, 201);
      return { collectionId: chapter.collectionId };
    },
    async fix(s, { collectionId }) {
      await call(s.api, 'set_chapter_members', { collectionId, members: [{ spotKey: s.spotKey }] });
    },
  },
  itinerary_archived_spot: {
    where: { kind: 'itinerary', field: /^days\[0\]\.stops\[0\]\.spotKey$/ },
    async cause(s) {
      const old = await call(
        s.api,
        'create_spot',
        { productId: s.productId, name: 'Old mill', lat: 46.3, lon: 13.9 },
        201,
      );
      const trip = await call(s.api, 'create_itinerary', { productId: s.productId, name: 'One day' }, 201);
      await call(s.api, 'set_itinerary_days', {
        itineraryId: trip.itineraryId,
        days: [{ title: 'Mill', stops: [{ kind: 'spot', spotKey: old.spotKey }] }],
      });
      await call(s.api, 'update_spot', { spotId: old.spotId, archived: true });
      return { spotId: old.spotId };
    },
    async fix(s, { spotId }) {
      await call(s.api, 'update_spot', { spotId, archived: false });
    },
  },
  link_broken: {
    where: { kind: 'link', field: /^url$/ },
    async cause(s) {
      await updateSpot(s, { links: [{ kind: 'official', url: s.goneUrl }] });
      const run = await call(s.api, 'check_links', { productId: s.productId });
      assert.equal(run.counts.broken, 1, JSON.stringify(run));
      return {};
    },
    // The creator opened it and says it is right (a site that answers robots 404).
    async fix(s) {
      await call(s.api, 'set_link_verified', { productId: s.productId, urls: [s.goneUrl], verified: true });
    },
  },
  place_without_position: {
    where: { kind: 'place', field: /^lat$/ },
    async cause(s) {
      const cafe = await call(s.api, 'create_facility', { productId: s.productId, kind: 'food', name: 'Cafe' }, 201);
      return { facilityId: cafe.facilityId };
    },
    async fix(s, { facilityId }) {
      await call(s.api, 'update_facility', { facilityId, lat: 46.31, lon: 13.91 });
    },
  },
};
