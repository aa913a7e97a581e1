/**
 * The trip14 fixture: a guide with 50 spots, a stay and a route, an itinerary, and the 14 days of
 * 10 stops each that every measured call sends again: PUT /itineraries/{id}/days.
 */
import type { Fixture, Reference } from './context.ts';

export const TRIP_DAYS = 14;
export const STOPS_PER_DAY = 10;
const SPOTS = 50;

type Call = (method: string, path: string, body?: unknown) => Promise<Reference>;

const WHEN = ['sunrise', 'morning', 'midday', 'afternoon', 'sunset', 'evening', 'night'];

/** Day d: travel, seven spots, lunch at the stay, the route; the night at the stay. */
function tripDays(hut: string, route: string): Array<Record<string, unknown>> {
  return Array.from({ length: TRIP_DAYS }, (_, d) => ({
    title: `Day ${d + 1}: valley ${d + 1}`,
    note: 'Start early; the car parks fill by nine.',
    stops: [
      { kind: 'travel', mode: 'car', from: `Village ${d}`, to: `Village ${d + 1}`, when: 'morning' },
      ...Array.from({ length: STOPS_PER_DAY - 3 }, (_, i) => ({
        kind: 'spot',
        spotKey: `trip-spot-${(d * 7 + i) % SPOTS}`,
        when: WHEN[i % WHEN.length],
        note: 'Twenty minutes is enough.',
      })),
      { kind: 'place', facilityId: hut, when: 'midday' },
      { kind: 'route', routeId: route, when: 'afternoon' },
    ],
    overnight: { facilityId: hut, note: 'Half board' },
  }));
}

export async function seedTrip(call: Call, createGuide: (call: Call) => Promise<string>): Promise<Fixture> {
  const productId = await createGuide(call);
  const base = `/api/v1/guides/${productId}`;
  for (let start = 0; start < SPOTS; start += 25) {
    const spots = Array.from({ length: 25 }, (_, i) => ({
      spotKey: `trip-spot-${start + i}`,
      name: `Lake ${start + i}`,
    }));
    await call('POST', `${base}/spots/batch`, { spots });
  }
  const hut = (await call('POST', `${base}/facilities`, { kind: 'hut', name: 'Rifugio Vallon' })).json as {
    facilityId: string;
  };
  const route = (await call('POST', `${base}/routes`, { name: 'Valley road', mode: 'car' })).json as {
    routeId: string;
  };
  const trip = (await call('POST', `${base}/itineraries`, { name: 'Two weeks, valley by valley' })).json as {
    itineraryId: string;
  };
  const sent = tripDays(hut.facilityId, route.routeId);
  const requestBody = JSON.stringify({ days: sent });
  const path = `/api/v1/itineraries/${trip.itineraryId}/days`;
  const reference = await call('PUT', path, requestBody);
  return { productId, method: 'PUT', path, requestBody, sent, reference };
}
