import assert from 'node:assert/strict';
import { assertOk } from './answers.ts';
import type { Api } from './api.ts';
import type { Harness } from './harness.ts';
import { flat } from './images.ts';
import { uploadRaw } from './uploads.ts';

/*
 * What the suites make and read back through the API, in one place: guides, spots, chapters,
 * photos, the sales page, properties, places and trips. Photo bytes are in images.ts, the upload
 * calls in uploads.ts.
 */

/** n items made from their index. */
export function times<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

/** A text of n characters. */
export const chars = (n: number, c = 'x') => c.repeat(n);

// Guides

/** A fresh guide of the caller; its productId. */
export async function newGuide(api: Api, name = 'Spots guide'): Promise<string> {
  const a = await api.call('create_guide', { name });
  assertOk(a, 201);
  return a.body.productId as string;
}

/** The guide as get_guide reads it. */
export async function guideOf(api: Api, productId: string): Promise<any> {
  const a = await api.call('get_guide', { productId });
  assertOk(a);
  return a.body;
}

/** Someone bought the guide: the studio records a purchase row. */
export async function recordPurchase(h: Harness, guideId: string): Promise<void> {
  await h.store.db
    .insertInto('purchases')
    .values({ id: `pur_${Math.random().toString(36).slice(2)}`, guide_id: guideId, created_at: h.clock.now() })
    .execute();
}

/** The snapshot buyers read: the guide's newest release, parsed. */
export async function latestSnapshot(h: Harness, productId: string): Promise<any> {
  const release = await h.store.db
    .selectFrom('releases')
    .select('snapshot')
    .where('guide_id', '=', productId)
    .orderBy('number', 'desc')
    .executeTakeFirstOrThrow();
  return JSON.parse(release.snapshot);
}

// Spots

export interface SpotIds {
  productId: string;
  spotId: string;
}

/** A fresh guide and one plain spot in it. */
export async function guideWithSpot(api: Api, name = 'Field types'): Promise<SpotIds> {
  const productId = await newGuide(api, name);
  const spot = await api.call('create_spot', { productId, name: 'Base spot' });
  assertOk(spot, 201);
  return { productId, spotId: spot.body.spotId };
}

/** Spots with these keys, made in batches of 25. */
export async function newSpots(api: Api, productId: string, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 25) {
    const spots = keys.slice(i, i + 25).map((spotKey) => ({ spotKey, name: spotKey }));
    assertOk(await api.call('upsert_spots', { productId, spots }));
  }
}

/**
 * Creates a spot with the fields, checks the answer has no warnings, then reads it back through
 * get_spot and returns that record.
 */
export async function createAndRead(api: Api, productId: string, fields: Record<string, unknown>): Promise<any> {
  const created = await api.call('create_spot', { productId, name: 'Spot', ...fields });
  assertOk(created, 201);
  assert.equal('warnings' in created.body, false, `no warnings expected: ${JSON.stringify(created.body.warnings)}`);
  const read = await api.call('get_spot', { spotId: created.body.spotId });
  assertOk(read);
  assert.equal('warnings' in read.body, false, 'a read never carries warnings');
  return read.body;
}

// Chapters

/** A chapter (or collection) of the guide, as create_chapter answers it. */
export async function newChapter(api: Api, productId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const a = await api.call('create_chapter', { productId, name: 'Chapter', ...fields });
  assertOk(a, 201);
  return a.body;
}

/** The guide's chapters as list_chapters reads them. */
export async function chaptersOf(api: Api, productId: string): Promise<any[]> {
  const a = await api.call('list_chapters', { productId });
  assertOk(a);
  return a.body.chapters;
}

// Photos and the sales page

/** A photo of the guide, uploaded by Alice; credited unless `credit` is undefined. */
export async function newPhoto(h: Harness, productId: string, credit?: string): Promise<string> {
  const bytes = await flat(32, 24).png().toBuffer();
  const fields = credit === undefined ? { productId } : { productId, credit };
  const res = await uploadRaw(h, h.alice.writeKey, bytes, 'image/png', fields);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.mediaId as string;
}

/** The sales page as get_sales_page reads it. */
export async function salesPageOf(api: Api, productId: string): Promise<any> {
  const a = await api.call('get_sales_page', { productId });
  assertOk(a);
  return a.body;
}

// Properties

/**
 * The calls the property suites make through one transport's client; `apiOf` is read at each call,
 * because a suite's clients are made in its `before`.
 */
export function propertyCalls(apiOf: () => Api) {
  const call = (name: string, args: Record<string, unknown> = {}) => apiOf().call(name, args);
  return {
    call,
    async create(productId: string, args: Record<string, unknown>) {
      const a = await call('create_property', { productId, ...args });
      assertOk(a, 201);
      return a.body;
    },
    /** The guide's property schema version, as get_guide reads it. */
    async version(productId: string): Promise<number> {
      return (await guideOf(apiOf(), productId)).propertySchemaVersion;
    },
    async listed(productId: string) {
      const a = await call('list_properties', { productId });
      assertOk(a);
      assert.equal(a.body.productId, productId);
      return a.body;
    },
  };
}

// Places

/** A place with every field set, as create_facility takes it (no warnings but gatewayTown's). */
export const fullPlace = {
  kind: 'cable_car',
  type: 'ferry',
  name: 'Lake ferry',
  operator: 'Lake Lines',
  description: 'Crosses the lake hourly.',
  costRaw: '35€ pp / kids free?',
  costUnit: 'per_person',
  openRaw: '  Jun–Sep, 8–18h (ish)  ',
  website: 'https://lakelines.example',
  mapsUrl: 'https://www.google.com/maps/place/Bled',
  extraProps: [{ label: 'Bikes', value: 'allowed' }],
  lat: 46.3683,
  lon: 14.1146,
  osmId: 'node/123',
  googlePlaceId: 'ChIJ123',
  country: 'SI',
  links: [{ kind: 'timetable', url: 'https://lakelines.example/tt' }],
  bookingRequired: true,
  bookingUrl: 'https://lakelines.example/book',
  extraKinds: ['activity'],
  needsParentTicket: false,
  conditions: { minAge: 6, cashOnly: true },
  parking: { fillsBy: '09:00', rule: 'No overnight stays' },
  transport: {
    stops: [{ name: 'Pier', lat: 46.37, lon: 14.11, registerId: 'P1', note: 'West shore' }],
    serviceDays: [1, 2, 3, 4, 5],
    timetableUrl: 'https://lakelines.example/tt.pdf',
    timetableValidFrom: '2026-06-01',
    timetableValidUntil: '2026-09-30',
    verifyBeforeTravel: true,
  },
  activity: { meetingPoint: 'Pier', meetingLat: 46.37, meetingLon: 14.11, durationMin: 45, requiredToSee: false },
  gatewayTown: 'Bled',
  status: { state: 'open' },
  fees: [{ label: 'Ticket', amount: 12, currency: 'EUR' }],
  schedule: { hours: [{ open: '08:00', close: '18:00' }] },
  sources: [{ title: 'Operator leaflet' }],
  reviewNotes: 'Checked by phone',
  factsCheckedOn: '2026-10-01',
  reviewBy: '2027-05-01',
};

// Trips

/** What a trip can stop at, in one guide: two spots, a stay, a restaurant, a route and a hike. */
export interface TripParts {
  productId: string;
  spots: [string, string];
  spotIds: [string, string];
  hut: string;
  food: string;
  route: string;
  hike: string;
}

async function created(api: Api, name: string, args: Record<string, unknown>, id: string): Promise<any> {
  const a = await api.call(name, args);
  assertOk(a, 201);
  assert.equal(typeof a.body[id], 'string');
  return a.body;
}

export async function tripParts(api: Api, productId: string): Promise<TripParts> {
  const lake = await created(api, 'create_spot', { productId, name: 'Lake Bled' }, 'spotId');
  const gorge = await created(api, 'create_spot', { productId, name: 'Vintgar Gorge' }, 'spotId');
  const hut = await created(api, 'create_facility', { productId, kind: 'hut', name: 'Planina Hut' }, 'facilityId');
  const food = await created(api, 'create_facility', { productId, kind: 'food', name: 'Gostilna' }, 'facilityId');
  const route = await created(api, 'create_route', { productId, name: 'Lake road' }, 'routeId');
  const hike = await created(api, 'create_hike', { productId, name: 'Seven Lakes' }, 'hikeId');
  return {
    productId,
    spots: [lake.spotKey, gorge.spotKey],
    spotIds: [lake.spotId, gorge.spotId],
    hut: hut.facilityId,
    food: food.facilityId,
    route: route.routeId,
    hike: hike.hikeId,
  };
}

/** A three-day trip over every kind of stop. */
export function threeDays(p: TripParts): any[] {
  return [
    {
      title: 'Lake Bled',
      note: '',
      stops: [
        { kind: 'travel', mode: 'car', from: 'Ljubljana', to: 'Bled', when: 'morning' },
        { kind: 'spot', spotKey: p.spots[0], when: 'afternoon', note: 'Shore path' },
        { kind: 'place', facilityId: p.food, when: 'evening' },
      ],
      overnight: { facilityId: p.hut, note: 'Book ahead' },
    },
    {
      title: 'Gorge and lakes',
      stops: [
        { kind: 'spot', spotKey: p.spots[1], when: 'sunrise', note: '' },
        { kind: 'route', routeId: p.hike, when: 'midday' },
        { kind: 'note', title: 'Water', note: 'Fill up at the hut' },
      ],
      overnight: { name: 'Camp at Bohinj' },
    },
    { title: 'Home', stops: [{ kind: 'route', routeId: p.route }] },
  ];
}

/** Every spot, place, route and hike the guide's itineraries name exists in the guide. */
export async function assertNoDanglingStops(api: Api, productId: string): Promise<void> {
  const spots = (await api.call('list_spots', { productId, includeArchived: true })).body.spots.map(
    (s: any) => s.spotKey,
  );
  const places = (await api.call('list_facilities', { productId })).body.facilities.map((f: any) => f.facilityId);
  const routes = (await api.call('list_routes', { productId })).body.routes.map((r: any) => r.routeId);
  const hikes = (await api.call('list_hikes', { productId })).body.hikes.map((h: any) => h.hikeId);
  const list = await api.call('list_itineraries', { productId });
  assertOk(list);
  for (const it of list.body.itineraries) {
    for (const day of it.days) {
      for (const stop of day.stops) {
        if (stop.kind === 'spot') assert.ok(spots.includes(stop.spotKey), `spot ${stop.spotKey} exists`);
        if (stop.kind === 'place') assert.ok(places.includes(stop.facilityId), `place ${stop.facilityId} exists`);
        if (stop.kind === 'route') {
          assert.ok([...routes, ...hikes].includes(stop.routeId), `route ${stop.routeId} exists`);
        }
      }
      if (day.overnight?.facilityId) assert.ok(places.includes(day.overnight.facilityId), 'overnight place exists');
    }
  }
}

/** A guide's history as list_changes answers it, newest first, up to 200 changes. */
export async function changesOf(api: Api, productId: string): Promise<any[]> {
  const a = await api.call('list_changes', { productId, limit: 200 });
  assertOk(a);
  return a.body.changes;
}
