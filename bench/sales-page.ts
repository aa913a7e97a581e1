/**
 * The salesPage fixture: a guide on sale with a full sales page (hero, three sections, highlights,
 * twelve sample spots with pins and photos, a gallery of six, a FAQ), put on sale through the admin
 * command line on the app's DATA_DIR as the studio would. Its reference is the public page at
 * salesPageUrl, fetched uncompressed: the load sends no Accept-Encoding either.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Fixture } from './context.ts';
import { jsonCaller as api, uploadPhoto } from './json-call.ts';

const ROOT = join(import.meta.dirname, '..');
const SAMPLE_SPOTS = 12;
const GALLERY = 6;

async function upload(origin: string, key: string, productId: string, i: number, spotId?: string): Promise<string> {
  const jpeg = await sharp({
    create: { width: 1600, height: 1067, channels: 3, background: { r: 40 + i * 9, g: 110, b: 150 } },
  })
    .jpeg({ quality: 70 })
    .toBuffer();
  return uploadPhoto(origin, key, jpeg, { productId, spotId, credit: `Photographer ${i + 1}`, alt: `View ${i + 1}` });
}

const PROSE =
  'Start before the first cable car and you will have the lake to yourself. Every walk in this guide ' +
  'has the time it takes, the height it climbs, where to park and what the hut serves for lunch.';

/** `root`: the checkout whose admin command line puts the guide on sale (the app's own). */
export async function seedSalesPage(origin: string, key: string, dataDir: string, root = ROOT): Promise<Fixture> {
  const call = api(origin, key);
  const { productId } = await call<{ productId: string }>('POST', '/guides', { name: 'Dolomites: Lakes and Huts' });
  await call('PATCH', `/guides/${productId}`, { headline: 'Twelve lakes, twenty huts, no crowds' });
  await call('PUT', `/guides/${productId}/price`, { amountMinor: 2900, currency: 'eur' });
  await call('PUT', `/guides/${productId}/region`, {
    label: 'Dolomites',
    centerLat: 46.5,
    centerLon: 11.85,
    defaultZoom: 9,
    bbox: [11.2, 46.1, 12.6, 46.9],
  });
  const spots = Array.from({ length: SAMPLE_SPOTS }, (_, i) => ({
    spotKey: `lake-${i + 1}`,
    name: `Lago ${['di Braies', 'di Sorapis', 'di Carezza', 'Antorno', 'di Misurina', 'Federa'][i % 6]} ${i + 1}`,
    lat: 46.2 + (i % 4) * 0.17,
    lon: 11.3 + Math.floor(i / 4) * 0.4 + (i % 3) * 0.05,
    description: `${PROSE}\n\nA second paragraph only buyers read.`,
  }));
  const upserted = await call<{ spots: Array<{ spotId: string }> }>('POST', `/guides/${productId}/spots/batch`, {
    spots,
  });
  for (const [i, spot] of upserted.spots.entries()) await upload(origin, key, productId, i, spot.spotId);
  const gallery: string[] = [];
  for (let i = 0; i < GALLERY + 1; i++) gallery.push(await upload(origin, key, productId, SAMPLE_SPOTS + i));
  const [hero, ...rest] = gallery;
  await call('PUT', `/guides/${productId}/sales-page/draft`, {
    heroMediaId: hero,
    headline: 'The Dolomites before the crowds',
    promise: 'Twelve lakes at their quietest hour, with the huts that feed you after.',
    sections: ['Who it is for', 'What you get', 'How it works'].map((heading) => ({
      heading,
      paragraphs: [PROSE, '- Offline maps\n- Opening hours checked this season\n- Parking for every walk', PROSE],
    })),
    highlights: ['Sunrise at Braies', 'The Sorapis loop without a queue', 'Huts that take cards'],
    included: ['12 lakes', '20 huts', '35 walks with timings'],
    sampleSpotKeys: spots.map((s) => s.spotKey),
    gallery: rest.map((mediaId, i) => ({ mediaId, caption: `Morning on lake ${i + 1}` })),
    faq: Array.from({ length: 5 }, (_, i) => ({ question: `Question ${i + 1}?`, answer: PROSE })),
    searchTitle: 'Dolomites lakes and huts guide',
    searchDescription: 'Twelve Dolomites lakes at their quietest hour, and the huts nearby.',
  });
  await promisify(execFile)(
    join(root, 'node_modules/.bin/node'),
    ['src/admin/cli.ts', 'guide', 'status', '--guide', productId, '--to', 'published'],
    { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
  );
  const { salesPageUrl } = await call<{ salesPageUrl: string }>('GET', `/guides/${productId}`);
  const path = new URL(salesPageUrl).pathname;
  const res = await fetch(`${origin}${path}`, { headers: { 'accept-encoding': 'identity' } });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`setup: the sales page answered ${res.status}: ${body.toString('utf8')}`);
  const contentType = res.headers.get('content-type') ?? '';
  return { productId, method: 'GET', path, reference: { body, contentType, json: undefined } };
}
