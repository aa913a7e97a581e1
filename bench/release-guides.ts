/**
 * The releases bench's guides (bench/releases-scale.ts), built through the REST API as an
 * assistant would: full spots (upserted 25 at a time), a photo for every hundredth spot, chapters of
 * 100 spots each, on sale through the admin command line (release 1); then a realistic session's
 * share of changes since: 10% of the spots renamed, 10% deleted, 10% added, photos moved to other
 * spots, spots moved between chapters and a chapter moved. Everything scales with the guide, so a
 * restore of release 1 undoes twice the work on a guide twice the size.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { type JsonCall, uploadPhoto } from './json-call.ts';
import { BATCH_SIZE } from './seed.ts';
import { fullSpot, seededRandom } from './spot-content.ts';

const ROOT = join(import.meta.dirname, '..');
/** Spots per photo and per chapter. */
const PER_PHOTO = 100;
const PER_CHAPTER = 100;

export interface ReleaseGuide {
  size: number;
  productId: string;
  /** The spots the changes left untouched, for the many small writes of the history. */
  spotIds: string[];
}

interface Upserted {
  spots: Array<{ spotId: string; spotKey: string }>;
}

async function upsertAll(
  call: JsonCall,
  productId: string,
  spots: Record<string, unknown>[],
): Promise<Upserted['spots']> {
  const out: Upserted['spots'] = [];
  for (let start = 0; start < spots.length; start += BATCH_SIZE) {
    const batch = spots.slice(start, start + BATCH_SIZE);
    const answer = await call<Upserted>('POST', `/guides/${productId}/spots/batch`, { spots: batch });
    out.push(...answer.spots);
  }
  return out;
}

/** A small JPEG (the bench times rows, not image work), on a spot of the guide. */
async function spotPhoto(origin: string, key: string, productId: string, spotId: string, i: number): Promise<string> {
  const jpeg = await sharp({
    create: { width: 320, height: 213, channels: 3, background: { r: i % 255, g: 90, b: 140 } },
  })
    .jpeg({ quality: 60 })
    .toBuffer();
  return uploadPhoto(origin, key, jpeg, { productId, spotId, credit: `Photographer ${i}`, alt: `View ${i}` });
}

/** A guide of `size` full spots with photos and chapters, on sale: its release 1. */
async function seedReleased(
  call: JsonCall,
  app: { origin: string; key: string; dataDir: string },
  size: number,
  today: string,
) {
  const { productId } = await call<{ productId: string }>('POST', '/guides', { name: `Releases bench ${size}` });
  await call('PUT', `/guides/${productId}/price`, { amountMinor: 2900, currency: 'eur' });
  const rng = seededRandom(size + 7);
  const spots = await upsertAll(
    call,
    productId,
    Array.from({ length: size }, (_, i) => fullSpot(i, rng, today)),
  );
  const photos: string[] = [];
  for (let i = 0; i < size; i += PER_PHOTO) {
    photos.push(await spotPhoto(app.origin, app.key, productId, spots[i]!.spotId, i));
  }
  const chapters: string[] = [];
  for (let c = 0; c * PER_CHAPTER < size; c++) {
    const chapter = await call<{ collectionId: string }>('POST', `/guides/${productId}/chapters`, {
      name: `Valley ${c + 1}`,
      kind: 'collection',
    });
    const members = spots.slice(c * PER_CHAPTER, (c + 1) * PER_CHAPTER).map((s) => ({ spotKey: s.spotKey }));
    await call('PUT', `/chapters/${chapter.collectionId}/members`, { members });
    chapters.push(chapter.collectionId);
  }
  await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/node'),
    ['src/admin/cli.ts', 'guide', 'status', '--guide', productId, '--to', 'published'],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: app.dataDir, DATABASE_URL: '' } },
  );
  return { productId, spots, photos, chapters, rng };
}

/** The changes since release 1: each a tenth of the spots, and moves of photos and chapter members. */
async function changeSince(call: JsonCall, guide: Awaited<ReturnType<typeof seedReleased>>, today: string) {
  const { productId, spots, photos, chapters, rng } = guide;
  const size = spots.length;
  const tenth = size / 10;
  // Spots 0..tenth renamed, tenth..2*tenth deleted, as many new ones added.
  const renamed = spots.slice(0, tenth).map((s, i) => ({ spotKey: s.spotKey, name: `Renamed spot ${i + 1}` }));
  await upsertAll(call, productId, renamed);
  for (const s of spots.slice(tenth, 2 * tenth)) await call('DELETE', `/spots/${s.spotId}`);
  await upsertAll(
    call,
    productId,
    Array.from({ length: tenth }, (_, i) => fullSpot(size + i, rng, today)),
  );
  // Every photo moves to a spot further on; every chapter gives its first ten spots to the chapter
  // before it; the last chapter moves to the front.
  for (const [i, mediaId] of photos.entries()) {
    await call('PATCH', `/media/${mediaId}`, {
      spotId: spots[2 * tenth + ((i * PER_PHOTO + 50) % (size - 2 * tenth))]!.spotId,
    });
  }
  const deleted = new Set(spots.slice(tenth, 2 * tenth));
  for (const [c, collectionId] of chapters.entries()) {
    const from = ((c + 1) % chapters.length) * PER_CHAPTER;
    const own = spots.slice(c * PER_CHAPTER + 10, (c + 1) * PER_CHAPTER);
    const moved = spots.slice(from, from + 10);
    const members = [...own, ...moved].filter((s) => !deleted.has(s)).map((s) => ({ spotKey: s.spotKey }));
    await call('PUT', `/chapters/${collectionId}/members`, { members });
  }
  await call('PUT', `/chapters/${chapters.at(-1)}/position`, { nextId: chapters[0] });
}

/** The guides of these sizes: seeded, released, then changed. */
export async function seedReleaseGuides(
  call: JsonCall,
  app: { origin: string; key: string; dataDir: string },
  sizes: readonly number[],
): Promise<ReleaseGuide[]> {
  const today = new Date().toISOString().slice(0, 10);
  const guides: ReleaseGuide[] = [];
  for (const size of sizes) {
    const seeded = await seedReleased(call, app, size, today);
    await changeSince(call, seeded, today);
    const stay = seeded.spots.slice(2 * (size / 10)).map((s) => s.spotId);
    guides.push({ size, productId: seeded.productId, spotIds: stay });
  }
  return guides;
}
