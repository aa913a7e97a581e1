import type { OperationExample } from '../../core/operation.ts';

const productId = 'gd_kKif6mbydYyv_ZEZ';
const itineraryId = 'it_3vQm8LtWcXe2pR9a';

const record = {
  itineraryId,
  productId,
  name: 'Three days around the Julian Alps',
  description: 'Lakes, a gorge and a night in a mountain hut.',
  body: 'Book the hut a week ahead in July and August.',
  coverMediaId: null,
  travelMode: 'car',
  season: { months: [6, 7, 8, 9], note: 'Huts open mid-June to September' },
  startsAt: 'Ljubljana airport',
  endsAt: 'Bled',
  days: [
    {
      title: 'Lake Bled',
      stops: [
        { kind: 'travel', mode: 'car', from: 'Ljubljana airport', to: 'Bled', when: 'morning' },
        { kind: 'spot', spotKey: 'lake-bohinj', when: 'afternoon', note: 'Walk the shore path.' },
      ],
      overnight: { facilityId: 'fac_0MknvfVxVCxRUasv' },
    },
  ],
  order: 1,
  archived: false,
  createdAt: 1793000000000,
  updatedAt: 1793000360000,
};

/** One realistic call per operation: the guide to Slovenia's lakes and gorges, a three-day trip. */
export const itinerariesExamples = {
  list_itineraries: { input: { productId }, output: { productId, count: 1, itineraries: [record], total: 1 } },
  create_itinerary: {
    input: { productId, name: record.name, description: record.description, travelMode: 'car' },
    output: {
      ...record,
      body: null,
      season: null,
      startsAt: null,
      endsAt: null,
      days: [],
      updatedAt: record.createdAt,
    },
  },
  get_itinerary: { input: { itineraryId }, output: record },
  update_itinerary: {
    input: { itineraryId, season: record.season, expectedUpdatedAt: record.updatedAt },
    output: record,
  },
  set_itinerary_days: {
    input: { itineraryId, days: record.days, expectedUpdatedAt: record.updatedAt },
    output: { itineraryId, name: record.name, order: 1, archived: false, updatedAt: record.updatedAt, dayCount: 1 },
  },
  reorder_itinerary: {
    input: { itineraryId },
    output: { ok: true, itineraryId },
  },
  delete_itinerary: { input: { itineraryId }, output: { ok: true, itineraryId, deleted: true } },
} satisfies Record<string, OperationExample>;
