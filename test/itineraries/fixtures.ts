import assert from 'node:assert/strict';
import { assertOk } from '../helpers/answers.ts';
import type { Api } from '../helpers/api.ts';

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
