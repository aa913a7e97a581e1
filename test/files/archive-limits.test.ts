import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { assertOk } from '../helpers/answers.ts';
import { useServer } from '../helpers/api.ts';
import { makeArchive, openArchive } from '../helpers/archives.ts';
import { testDialects } from '../helpers/dialects.ts';
import { uploadArchive } from '../helpers/example-story.ts';
import { newChapter, newGuide, newPhoto, threeDays, tripParts } from '../helpers/fixtures.ts';
import { storedFiles } from '../helpers/uploads.ts';

/**
 * import_guide holds every field of an archive's records to the limits the write operations check
 * (lengths, counts, ranges, enum values), in their words: a record over one is refused with a 400
 * naming the record and the field, and nothing is written.
 */

const long = (n: number) => 'x'.repeat(n);

/** Each way an archive edited by hand breaks a limit, and the field the refusal names. */
const BROKEN: { title: string; field: RegExp; edit: (r: any) => void }[] = [
  {
    title: 'a guide headline',
    field: /^guide\.headline: must be at most 200/,
    edit: (r) => (r.guide.headline = long(201)),
  },
  {
    title: 'a store tag',
    field: /^guide\.storeTags\[0\]: must be one of/,
    edit: (r) => (r.guide.storeTags = ['nonsense']),
  },
  {
    title: 'the areas per guide',
    field: /^guide\.areas: holds 51 areas; a guide holds at most 50/,
    edit: (r) => (r.guide.areas = Array.from({ length: 51 }, (_, i) => ({ ...r.guide.areas[0], id: `ar_${i}` }))),
  },
  {
    title: 'an area name',
    field: /^guide\.areas\[0\]\.name: must be at most/,
    edit: (r) => (r.guide.areas[0].name = long(500)),
  },
  {
    title: 'a property kind',
    field: /^properties\[0\]\.kind: must be one of/,
    edit: (r) => (r.properties[0].kind = 'colour'),
  },
  { title: 'a spot name', field: /^spots\[0\]\.name: must be at most 120/, edit: (r) => (r.spots[0].name = long(121)) },
  {
    title: 'the pins of a spot',
    field: /^spots\[0\]\.pins: must have at most 12 items/,
    edit: (r) =>
      (r.spots[0].pins = Array.from({ length: 13 }, () => ({
        kind: 'viewpoint',
        label: 'North shore',
        lat: 46.3,
        lon: 14.1,
      }))),
  },
  {
    title: "a spot's status",
    field: /^spots\[1\]\.status\.state: must be one of/,
    edit: (r) => (r.spots[1].status = { state: 'shut' }),
  },
  {
    title: 'the extra properties of a place',
    field: /^places\[0\]\.extraProps: must have at most 24 items/,
    edit: (r) => (r.places[0].extraProps = Array.from({ length: 25 }, (_, i) => ({ label: `l${i}`, value: 'v' }))),
  },
  {
    title: "a route's distance",
    field: /^routesWithTracks\[\d\]\.record\.distanceKm: must be at least 0/,
    edit: (r) => (r.routesWithTracks.find((x: any) => x.kind === 'route').record.distanceKm = -3),
  },
  {
    title: "a hike's grade",
    field: /^routesWithTracks\[\d\]\.record\.grade: must be at most 24/,
    edit: (r) => (r.routesWithTracks.find((x: any) => x.kind === 'hike').record.grade = long(25)),
  },
  {
    title: "a chapter's paragraphs",
    field: /^chapters\[0\]\.body: must have at most 100 items/,
    edit: (r) => (r.chapters[0].body = Array.from({ length: 101 }, () => 'A paragraph.')),
  },
  {
    title: 'a photo credit',
    field: /^photos\[0\]\.meta\.credit: must be at most/,
    edit: (r) => (r.photos[0].meta.credit = long(1000)),
  },
  {
    title: "a photo's focal point",
    field: /^photos\[0\]\.meta\.focalX: must be at most 1/,
    edit: (r) => (r.photos[0].meta.focalX = 2),
  },
  {
    title: 'an itinerary name',
    field: /^itineraries\[0\]\.name: must be at most 120/,
    edit: (r) => (r.itineraries[0].name = long(121)),
  },
  {
    title: "an itinerary's days",
    field: /^itineraries\[0\]\.days: must have at most/,
    edit: (r) => (r.itineraries[0].days = Array.from({ length: 400 }, () => r.itineraries[0].days[0])),
  },
  {
    title: 'a sales page headline',
    field: /^salesPage\.headline: must be at most/,
    edit: (r) => (r.salesPage.headline = long(500)),
  },
];

for (const { dialect, skip } of await testDialects()) {
  describe(`import_guide holds records to the operations' limits (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });
    let exported: ReturnType<typeof openArchive>;

    /** A guide with a record of every kind, exported as an archive and opened. */
    before(async () => {
      const api = suite.apis.rest;
      const productId = await newGuide(api, 'Every kind of record');
      const trip = await tripParts(api, productId);
      assertOk(await api.call('set_area', { productId, name: 'Triglav National Park' }));
      assertOk(await api.call('create_property', { productId, label: 'Parking', kind: 'shortLabel' }), 201);
      await newChapter(api, productId, { kind: 'chapter', body: ['Two lakes an hour apart.'] });
      await newPhoto(suite.h, productId, 'Ana');
      const itinerary = await api.call('create_itinerary', { productId, name: 'Three days' });
      assertOk(itinerary, 201);
      assertOk(
        await api.call('set_itinerary_days', { itineraryId: itinerary.body.itineraryId, days: threeDays(trip) }),
      );
      assertOk(await api.call('save_sales_page_draft', { productId, headline: 'Lakes without the crowds' }));
      const answer = await api.call('export_guide', { productId, format: 'archive' });
      assertOk(answer);
      exported = openArchive(Buffer.from(await (await fetch(answer.body.url)).arrayBuffer()));
    });

    async function guideCount(): Promise<number> {
      const rows = await suite.h.store.db
        .selectFrom('guides')
        .select('id')
        .where('creator_id', '=', suite.h.alice.creatorId)
        .execute();
      return rows.length;
    }

    it('takes the archive as exported', async () => {
      const res = await uploadArchive(
        suite.h.baseUrl,
        suite.h.alice.writeKey,
        makeArchive(exported.records, exported.files),
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
    });

    for (const { title, field, edit } of BROKEN) {
      it(`refuses ${title} over its limit, naming the record and field, and writes nothing`, async () => {
        const records = structuredClone(exported.records);
        edit(records);
        const before = { guides: await guideCount(), files: await storedFiles(suite.h) };
        const res = await uploadArchive(suite.h.baseUrl, suite.h.alice.writeKey, makeArchive(records, exported.files));
        assert.equal(res.status, 400, JSON.stringify(res.body));
        const error = (res.body as any).error;
        assert.equal(error.code, 'invalid_request');
        const prefix = 'archive records.json ';
        assert.ok(error.message.startsWith(prefix), error.message);
        assert.match(error.message.slice(prefix.length), field);
        assert.match(error.message, /Nothing was imported/);
        assert.deepEqual({ guides: await guideCount(), files: await storedFiles(suite.h) }, before, 'nothing written');
      });
    }
  });
}
