/**
 * Setup through the app's REST API, once per run, before anything is measured: the guides each
 * fixture needs and the app's exact answer for it (the bytes the raw server then answers).
 *   guide      a realistic guide (name, headline, country, tags, region, price): GET /guides/{id}
 *   spots2000  a second guide with 2,000 full spots, upserted 25 at a time: GET /guides/{id}/spots
 *   batch25    a third guide and a batch of 25 full spots, sent twice (so its answer is the steady
 *              state: 25 unchanged, nothing written, answered compact): POST /guides/{id}/spots/batch
 *   trip14     a fourth guide with an itinerary of 14 days of 10 stops: PUT /itineraries/{id}/days
 *   salesPage  a fifth guide on sale with a full sales page: GET its salesPageUrl (bench/sales-page.ts)
 */

import type { Fixture, FixtureName, Reference } from './context.ts';
import { seedSalesPage } from './sales-page.ts';
import { fullSpot, seededRandom } from './spot-content.ts';
import { seedTrip } from './trip.ts';

export const SPOT_GUIDE_SIZE = 2000;
export const BATCH_SIZE = 25;

type Call = (method: string, path: string, body?: unknown) => Promise<Reference>;

function caller(origin: string, key: string): Call {
  return async (method, path, body) => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!res.ok) throw new Error(`setup: ${method} ${path} answered ${res.status}: ${bytes.toString('utf8')}`);
    const contentType = res.headers.get('content-type') ?? '';
    return { body: bytes, contentType, json: JSON.parse(bytes.toString('utf8')) };
  };
}

interface GuideSetup {
  name: string;
  headline: string;
  region: { label: string; centerLat: number; centerLon: number; defaultZoom: number; bbox: number[] };
}

async function createGuide(call: Call, { name, headline, region }: GuideSetup): Promise<string> {
  const created = (await call('POST', '/api/v1/guides', { name })).json as { productId: string };
  const productId = created.productId;
  await call('PATCH', `/api/v1/guides/${productId}`, {
    headline,
    country: 'IT',
    storeTags: ['alpine', 'hiking', 'photography'],
  });
  await call('PUT', `/api/v1/guides/${productId}/region`, region);
  await call('PUT', `/api/v1/guides/${productId}/price`, { amountMinor: 2900, currency: 'eur' });
  return productId;
}

const ALPS = { label: 'The Alps', centerLat: 46.6, centerLon: 10.7, defaultZoom: 7, bbox: [6.5, 45.5, 14.8, 47.8] };

async function seedGuide(call: Call): Promise<Fixture> {
  const productId = await createGuide(call, {
    name: 'Dolomites: Hikes and Huts',
    headline: 'Twenty hut-to-hut hikes with maps, timings and where to eat',
    region: { label: 'Dolomites', centerLat: 46.5, centerLon: 11.85, defaultZoom: 9, bbox: [11.2, 46.1, 12.6, 46.9] },
  });
  const path = `/api/v1/guides/${productId}`;
  return { productId, method: 'GET', path, reference: await call('GET', path) };
}

async function seedSpotGuide(call: Call, today: string): Promise<Fixture> {
  const productId = await createGuide(call, {
    name: 'The Alps, Spot by Spot',
    headline: '2,000 lakes, huts, passes and viewpoints',
    region: ALPS,
  });
  const rng = seededRandom(2000);
  const spots = Array.from({ length: SPOT_GUIDE_SIZE }, (_, i) => fullSpot(i, rng, today));
  for (let start = 0; start < spots.length; start += BATCH_SIZE) {
    await call('POST', `/api/v1/guides/${productId}/spots/batch`, { spots: spots.slice(start, start + BATCH_SIZE) });
  }
  const path = `/api/v1/guides/${productId}/spots`;
  const reference = await call('GET', path);
  const total = (reference.json as { total?: unknown }).total;
  if (total !== SPOT_GUIDE_SIZE) throw new Error(`setup: list_spots counted ${total}, expected ${SPOT_GUIDE_SIZE}`);
  return { productId, method: 'GET', path, reference };
}

async function seedBatch(call: Call, today: string): Promise<Fixture> {
  const productId = await createGuide(call, {
    name: 'Alpine Lakes Weekend',
    headline: 'Twenty-five lakes within a day of Bolzano',
    region: ALPS,
  });
  const rng = seededRandom(25);
  const sent = Array.from({ length: BATCH_SIZE }, (_, i) => fullSpot(i, rng, today));
  const requestBody = JSON.stringify({ spots: sent });
  const path = `/api/v1/guides/${productId}/spots/batch`;
  await call('POST', path, requestBody); // creates the 25 spots; every later call finds them unchanged
  const reference = await call('POST', path, requestBody);
  return { productId, method: 'POST', path, requestBody, sent, reference };
}

/** The fixtures the chosen targets need, each made once. */
export async function seedFixtures(
  origin: string,
  key: string,
  needed: ReadonlySet<FixtureName>,
  /** The app's DATA_DIR: the admin command line puts a guide on sale there. */
  dataDir: string,
  /** The app's checkout, whose admin command line that is (another commit's, for --against). */
  root?: string,
): Promise<Partial<Record<FixtureName, Fixture>>> {
  const call = caller(origin, key);
  const today = new Date().toISOString().slice(0, 10);
  const fixtures: Partial<Record<FixtureName, Fixture>> = {};
  if (needed.has('guide')) fixtures.guide = await seedGuide(call);
  if (needed.has('spots2000')) fixtures.spots2000 = await seedSpotGuide(call, today);
  if (needed.has('batch25')) fixtures.batch25 = await seedBatch(call, today);
  if (needed.has('trip14')) {
    fixtures.trip14 = await seedTrip(call, (c) =>
      createGuide(c, { name: 'Dolomites in Two Weeks', headline: 'Fourteen valleys, one a day', region: ALPS }),
    );
  }
  if (needed.has('salesPage')) fixtures.salesPage = await seedSalesPage(origin, key, dataDir, root);
  return fixtures;
}
