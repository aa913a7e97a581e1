import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnyOperation } from '../../src/core/operation.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, useServer } from '../helpers/api.ts';
import { type OpenedArchive, openArchive } from '../helpers/archives.ts';
import { testSetups } from '../helpers/blob-stores.ts';
import { exampleStory, studioFor, uploadArchive, uploadExample } from '../helpers/example-story.ts';
import type { Harness } from '../helpers/harness.ts';
import { flat } from '../helpers/images.ts';
import { uploadForm, uploadRaw } from '../helpers/uploads.ts';

/**
 * A full guide (every example of the API played on it: spots, areas, places, routes and hikes,
 * chapters and collections with covers, itineraries, photos with credits, the sales page, a
 * publish) archived, imported as a new guide, archived again: both archives' records, read through
 * the whole-guide reader, are the same guide with ids mapped one to one; every photo file is the
 * same bytes in the blob store; no sale state came along.
 */

const ID = /(?<![A-Za-z0-9_-])(?:gd|ar|sp|fac|rt|hk|col|it|med|sto|prop|blob)_[A-Za-z0-9_-]{16}(?![A-Za-z0-9_-])/g;

/** Times of writing, and the guide's sale and store state and counters, which an import starts afresh. */
const NOT_CARRIED = new Set(['createdAt', 'updatedAt', 'publishedAt', 'lastApiWriteAt', 'schemaVersion']);
const SALE_STATE = [
  'status',
  'visibleOnStore',
  'storeReviewStatus',
  'storeReviewNote',
  'price',
  'pricing',
  'thumbnailUrl',
  // Counts changes to the properties, which begin again with the new guide.
  'propertySchemaVersion',
  // The account's address and the slug: compared on their own.
  'salesPageUrl',
  'slug',
];

/** The records with each id replaced by its place in first-appearance order, and times left out. */
function canonical(records: any): unknown {
  const guide = { ...records.guide };
  for (const field of SALE_STATE) delete guide[field];
  const text = JSON.stringify({ ...records, guide }, (key, value) => (NOT_CARRIED.has(key) ? undefined : value));
  const seen = new Map<string, string>();
  return JSON.parse(
    text.replace(ID, (id) => {
      if (!seen.has(id)) seen.set(id, `#${seen.size}`);
      return seen.get(id) as string;
    }),
  );
}

/** The ids of one archive's records against the other's, in the order both name them. */
function idPairs(a: any, b: any): Map<string, string> {
  const left = JSON.stringify(a).match(ID) ?? [];
  const right = JSON.stringify(b).match(ID) ?? [];
  assert.equal(left.length, right.length, 'both name as many ids');
  const pairs = new Map<string, string>();
  left.forEach((id, i) => {
    const other = right[i] as string;
    assert.equal(pairs.get(id) ?? other, other, `${id} maps to one id`);
    pairs.set(id, other);
  });
  return pairs;
}

/** The guide's archive as a creator downloads it: export_guide's address, opened without a key. */
async function zipOf(h: Harness, key: string, productId: string): Promise<Buffer> {
  const answer = await apiFor(h, 'rest', key).call('export_guide', { productId, format: 'archive' });
  assertOk(answer);
  const res = await fetch(answer.body.url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/zip');
  assert.match(res.headers.get('content-disposition') ?? '', /\.zip"/);
  const zip = Buffer.from(await res.arrayBuffer());
  // The answer's size is the parts before the records are compressed: about what arrives.
  assert.ok(zip.length <= answer.body.byteSize + 64 * 1024, `${zip.length} B against ${answer.body.byteSize} B`);
  return zip;
}

async function archiveOf(h: Harness, key: string, productId: string): Promise<OpenedArchive> {
  return openArchive(await zipOf(h, key, productId));
}

/** Every example of the API that adds to a guide, played on one: the guide it made. */
async function fullGuide(h: Harness): Promise<string> {
  const rest = apiFor(h, 'rest', h.alice.publishKey);
  const call = async (op: AnyOperation, input: Record<string, unknown>) => {
    if (op.restOnly) return uploadExample(h.baseUrl, h.alice.publishKey, op, input);
    const answer = await rest.call(op.name, input);
    assert.ok(answer.ok, `${op.name}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const story = h.app.registry.operations.filter((op) => !op.destructive && op.name !== 'import_guide');
  const ids = await exampleStory(story, call, new Map(), studioFor(h.store.db));
  const created = h.app.registry.get('create_guide')?.example?.output.productId as string;
  const productId = ids.get(created) as string;
  // What the story leaves out: a chapter cover (a stored image, with its credit) and a sales page with photos.
  const png = await flat(48, 32).png().toBuffer();
  const cover = await uploadRaw(h, h.alice.writeKey, png, 'image/png', { productId, target: 'blob' });
  assert.equal(cover.status, 201, JSON.stringify(cover.body));
  const [chapter] = (await rest.call('list_chapters', { productId })).body.chapters;
  const covered = await rest.call('update_chapter', {
    collectionId: chapter.collectionId,
    coverStorageId: cover.body.storageId,
    coverCredit: 'Ana Trails',
    coverLicence: 'CC BY 4.0',
  });
  assert.ok(covered.ok, JSON.stringify(covered.body));
  const photos = (await rest.call('list_media', { productId })).body.media.map((m: any) => m.mediaId);
  const page = h.app.registry.get('save_sales_page_draft')?.example?.input as Record<string, unknown>;
  const saved = await rest.call('save_sales_page_draft', {
    ...page,
    productId,
    heroMediaId: photos[0],
    gallery: photos.map((mediaId: string) => ({ mediaId, caption: 'At dawn' })),
  });
  assert.ok(saved.ok, JSON.stringify(saved.body));
  const thumbnail = await rest.call('update_guide', { productId, thumbnailMediaId: photos[1] });
  assert.ok(thumbnail.ok && thumbnail.body.thumbnailUrl, JSON.stringify(thumbnail.body));
  await rest.close();
  return productId;
}

for (const { dialect, blobStore, skip, name } of await testSetups()) {
  describe(`guide archive round trip (${name})`, { skip }, () => {
    const suite = useServer({ dialect, blobStore });
    let original: OpenedArchive;
    let productId: string;

    it('the archive holds every record and every photo file as stored, each listed with its sha256', async () => {
      const { h } = suite;
      productId = await fullGuide(h);
      original = await archiveOf(h, h.alice.readKey, productId);
      const { manifest, records, files } = original;
      assert.equal(manifest.formatVersion, 1);
      assert.equal(manifest.guideId, productId);
      for (const part of ['spots', 'places', 'routesWithTracks', 'chapters', 'photos', 'itineraries', 'properties']) {
        assert.ok(records[part].length > 0, `the full guide has ${part}`);
      }
      assert.ok(records.guide.areas.length > 0 && records.salesPage !== null && records.storedImages.length > 0);
      assert.ok(
        records.photos.some((p: any) => p.meta.credit !== null),
        'credits are kept',
      );
      assert.deepEqual(
        manifest.files.map((f: any) => f.name).sort(),
        [...files.keys()].sort(),
        'the manifest lists every file',
      );
      // Byte for byte what the blob store holds, originals and every size.
      const keys = [...records.photos, ...records.storedImages].flatMap((p: any) => Object.values(p.files));
      assert.equal(new Set(keys.map((f: any) => f.key)).size, files.size);
      for (const file of keys as any[]) {
        const stored = await h.blobs.get(file.key);
        const inArchive = [...files].find(([n]) => n.startsWith(`files/${file.key}.`))?.[1];
        assert.ok(stored && inArchive && stored.bytes.equals(inArchive), `${file.key} as stored`);
      }
    });

    it("another creator's guide is not found, and the live release is no archive", async () => {
      const { h } = suite;
      const bobs = await apiFor(h, 'rest', h.bob.readKey).call('export_guide', { productId, format: 'archive' });
      assert.equal(bobs.status, 404, JSON.stringify(bobs.body));
      const live = await apiFor(h, 'mcp', h.alice.readKey).call('export_guide', {
        productId,
        format: 'archive',
        from: 'live',
      });
      assertError(live, 'invalid_request', 'from');
      assert.match(live.body.error.message, /^from: an archive keeps the working copy whole/);
    });

    async function importAndCompare(key: string, zip: Buffer, multipart: boolean) {
      const { h } = suite;
      const res = multipart
        ? await uploadForm(h, key, '/guides/import', [{ bytes: zip, type: 'application/zip', name: 'guide.zip' }])
        : await uploadArchive(h.baseUrl, key, zip);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const copy = await archiveOf(h, key, res.body.productId as string);
      assert.notEqual(copy.manifest.guideId, productId);
      if (process.env.ARCHIVE_DEBUG) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync('/tmp/archive-a.json', JSON.stringify(canonical(original.records), null, 1));
        writeFileSync('/tmp/archive-b.json', JSON.stringify(canonical(copy.records), null, 1));
      }
      assert.deepEqual(canonical(copy.records), canonical(original.records), 'the same guide, ids aside');
      // Every id is new, and each old one maps to exactly one new one.
      const pairs = idPairs(original.records, copy.records);
      for (const [from, to] of pairs) assert.notEqual(from, to, `${from} got a new id`);
      // Photo files byte for byte, under their new keys, in the blob store itself.
      for (const photo of [...original.records.photos, ...original.records.storedImages]) {
        for (const file of Object.values(photo.files) as any[]) {
          const [before, after] = [await h.blobs.get(file.key), await h.blobs.get(pairs.get(file.key) as string)];
          assert.ok(before && after && before.bytes.equals(after.bytes), `${file.key} copied byte for byte`);
        }
      }
      return { productId: res.body.productId as string, copy };
    }

    it('imported as a new guide of the same creator: the same guide, new ids, photos byte for byte, a draft with no price', async () => {
      const { h } = suite;
      const zip = await zipOf(h, h.alice.readKey, productId);
      const { productId: copyId, copy } = await importAndCompare(h.alice.writeKey, zip, false);
      const read = async (id: string) =>
        (await apiFor(h, 'rest', h.alice.readKey).call('get_guide', { productId: id })).body;
      const [was, guide] = [await read(productId), await read(copyId)];
      assert.equal(was.status, 'published');
      assert.notEqual(was.price, null, 'the original has a price');
      assert.equal(guide.status, 'draft', 'the copy is a draft');
      assert.equal(guide.price, null, 'with no price');
      assert.equal(guide.visibleOnStore, false);
      assert.notEqual(copy.records.guide.slug, original.records.guide.slug, "a free slug of the creator's");
    });

    it("imported into another creator's account (multipart): theirs alone, readable over MCP", async () => {
      const { h } = suite;
      const zip = await zipOf(h, h.alice.readKey, productId);
      const { productId: bobs, copy } = await importAndCompare(h.bob.writeKey, zip, true);
      assert.equal(copy.records.guide.slug, original.records.guide.slug, 'the slug is free in his account');
      const mcp = apiFor(h, 'mcp', h.bob.readKey);
      try {
        const spots = await mcp.call('list_spots', { productId: bobs, includeArchived: true, limit: 100 });
        assert.ok(spots.ok, JSON.stringify(spots.body));
        assert.equal(spots.body.spots.length, original.records.spots.length);
      } finally {
        await mcp.close();
      }
      const alices = await apiFor(h, 'rest', h.alice.readKey).call('get_guide', { productId: bobs });
      assert.equal(alices.status, 404, "Bob's import is not Alice's");
    });
  });
}
