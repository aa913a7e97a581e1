import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertError, assertNotFoundAlike, assertOk } from '../helpers/answers.ts';
import { apiFor, describeOverTransports } from '../helpers/api.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';
import { mixedGeojson, spreadsheetCsv } from './import-files.ts';

await describeOverTransports('files: import_spots', (suite, t) => {
  const { apis } = suite;
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
  const spotsOf = async (productId: string) => {
    const a = await call('list_spots', { productId, includeArchived: true });
    assertOk(a);
    return a.body.spots;
  };
  const changesOf = async (productId: string) => {
    const a = await call('list_changes', { productId });
    assertOk(a);
    return a.body.changes.length;
  };

  it('a GeoJSON of mixed geometries: points and MultiPoint points become spots, lines hikes, the rest skipped', async () => {
    const productId = await newGuide(apis[t], `${t} mixed`);
    const a = await call('import_spots', { productId, format: 'geojson', content: mixedGeojson });
    assertOk(a);
    assert.equal(a.body.dryRun, false);
    assert.deepEqual(
      { created: a.body.created, updated: a.body.updated, unchanged: a.body.unchanged, skipped: a.body.skipped },
      { created: 4, updated: 0, unchanged: 0, skipped: 4 },
    );
    const skips = a.body.items.filter((i: { action: string }) => i.action === 'skip');
    assert.deepEqual(
      skips.map((s: { where: string; reason: string }) => [s.where, s.reason.split(':')[0]]),
      [
        ['feature 5', 'a Polygon is neither a place nor a line'],
        ['feature 3, point 2', 'duplicate key "fanal-tree"'],
        ['feature 6', 'no position'],
        ['feature 7', 'no name'],
      ],
    );
    const spots = await spotsOf(productId);
    assert.deepEqual(
      spots.map((s: { spotKey: string; name: string; lat: number; lon: number; description: string | null }) => [
        s.spotKey,
        s.name,
        s.lat,
        s.lon,
        s.description,
      ]),
      [
        ['cabo-girao', 'Cabo Girão', 32.6561234, -17.0047, 'Sea cliff, glass floor.\n\nheight: 580'],
        ['miradouro-do-juncal', 'Miradouro do Juncal', 32.74, -16.89, null],
        ['fanal-tree', 'Fanal tree', 32.81, -17.14, null],
      ],
      'names and descriptions as written, coordinates to 7 decimals, nothing made up (no name for the second tree)',
    );
    const hikes = await call('list_hikes', { productId });
    assertOk(hikes);
    assert.equal(hikes.body.hikes.length, 1);
    const [hike] = hikes.body.hikes;
    assert.equal(hike.name, 'Levada do Rei');
    assert.equal(hike.trackFigures.pointCount, 4, 'the two parts of the MultiLineString joined');
    assert.ok(hike.trackFigures.distanceKm > 0);
    assert.equal(hike.trackFigures.gainM, 60);
  });

  it('importing the same file again changes nothing: same keys, no write, no history, no stamp', async () => {
    const productId = await newGuide(apis[t], `${t} again`);
    assertOk(await call('import_spots', { productId, format: 'geojson', content: mixedGeojson }));
    const before = { spots: await spotsOf(productId), guide: await guideOf(apis[t], productId) };
    const changes = await changesOf(productId);
    suite.h.clock.set(new Date(suite.h.clock.now() + 60_000).toISOString());
    const again = await call('import_spots', { productId, format: 'geojson', content: mixedGeojson });
    assertOk(again);
    assert.deepEqual([again.body.created, again.body.updated, again.body.unchanged], [0, 0, 4]);
    assert.deepEqual(await spotsOf(productId), before.spots);
    assert.equal(await changesOf(productId), changes, 'no change recorded');
    const guide = await guideOf(apis[t], productId);
    assert.equal(guide.lastApiWriteAt, before.guide.lastApiWriteAt, 'the guide is not even stamped');
  });

  it('a spreadsheet CSV with a BOM, semicolons and decimal commas; an edited row updates its spot', async () => {
    const productId = await newGuide(apis[t], `${t} csv`);
    const a = await call('import_spots', { productId, format: 'csv', content: spreadsheetCsv });
    assertOk(a);
    assert.deepEqual([a.body.created, a.body.skipped], [3, 1]);
    const spots = await spotsOf(productId);
    assert.deepEqual(
      spots.map((s: { name: string; lat: number; lon: number }) => [s.name, s.lat, s.lon]),
      [
        ['Lake Bled', 46.3636, 14.0938],
        ['Savica Waterfall', 46.2922, 13.7967],
        ['Vintgar, "the gorge"', 46.3933, 14.0847],
      ],
    );
    assert.equal(spots[0].description, 'Pletna boat to the island.\n\nParking: Paid');
    assert.equal(spots[0].timeZone, 'Europe/Ljubljana');
    const edited = spreadsheetCsv.replace('Pletna boat to the island.', 'Pletna boats from 8:00.');
    const b = await call('import_spots', { productId, format: 'csv', content: edited });
    assertOk(b);
    assert.deepEqual([b.body.created, b.body.updated, b.body.unchanged], [0, 1, 2]);
    const bled = b.body.items.find((i: { action: string }) => i.action === 'update');
    assert.equal(bled.id, spots[0].spotId, 'matched on the key its name gives');
  });

  it('dryRun lists what would happen and why, a page at a time, and writes nothing', async () => {
    const productId = await newGuide(apis[t], `${t} dry`);
    assertOk(await call('set_guide_region', { productId, bbox: [-17.1, 32.6, -16.8, 32.8] }));
    const guide = await guideOf(apis[t], productId);
    const changes = await changesOf(productId);
    suite.h.clock.set(new Date(suite.h.clock.now() + 60_000).toISOString());
    const first = await call('import_spots', {
      productId,
      format: 'geojson',
      content: mixedGeojson,
      dryRun: true,
      limit: 3,
    });
    assertOk(first);
    assert.equal(first.body.dryRun, true);
    assert.equal(first.body.total, 8);
    assert.equal(first.body.items.length, 3);
    assert.ok(first.body.nextCursor);
    const rest = await call('import_spots', {
      productId,
      format: 'geojson',
      content: mixedGeojson,
      dryRun: true,
      cursor: first.body.nextCursor,
      limit: 10,
    });
    assertOk(rest);
    const items = [...first.body.items, ...rest.body.items];
    assert.equal(items.length, 8);
    const outside = items.filter((i) => /outside the guide's region/.test(i.reason ?? ''));
    assert.deepEqual(
      outside.map((i) => i.name),
      ['Fanal tree'],
      'places outside the bbox are skipped, saying so',
    );
    assert.deepEqual(await spotsOf(productId), []);
    assert.equal(await changesOf(productId), changes);
    assert.equal((await guideOf(apis[t], productId)).lastApiWriteAt, guide.lastApiWriteAt);
  });

  it('keyFrom id-property, areaId and collectionId place the spots; a duplicate key is skipped', async () => {
    const productId = await newGuide(apis[t], `${t} placed`);
    const area = await call('set_area', { productId, name: 'Madeira' });
    assertOk(area);
    const collection = await call('create_chapter', { productId, name: 'Viewpoints', kind: 'collection' });
    assertOk(collection, 201);
    const content = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'v1',
          properties: { name: 'Same name' },
          geometry: { type: 'Point', coordinates: [-17, 32.7] },
        },
        {
          type: 'Feature',
          id: 'v2',
          properties: { name: 'Same name' },
          geometry: { type: 'Point', coordinates: [-17, 32.8] },
        },
        {
          type: 'Feature',
          id: 'v2',
          properties: { name: 'Other' },
          geometry: { type: 'Point', coordinates: [-17, 32.9] },
        },
      ],
    });
    const args = {
      productId,
      format: 'geojson',
      content,
      keyFrom: 'id-property',
      areaId: area.body.area.id,
      collectionId: collection.body.collectionId,
    };
    const a = await call('import_spots', args);
    assertOk(a);
    assert.deepEqual([a.body.created, a.body.skipped, a.body.addedToCollection], [2, 1, 2]);
    assert.match(a.body.items[0].reason, /^duplicate key "v2"/);
    const spots = await spotsOf(productId);
    assert.deepEqual(
      spots.map((s: { spotKey: string; areaId: string }) => [s.spotKey, s.areaId]),
      [
        ['v1', area.body.area.id],
        ['v2', area.body.area.id],
      ],
    );
    const members = await call('list_spots', { productId, collectionId: collection.body.collectionId });
    assert.equal(members.body.spots.length, 2);
    const again = await call('import_spots', args);
    assertOk(again);
    assert.equal(again.body.addedToCollection, 0, 'members already there are not added twice');
  });

  it('lines become routes when asked; one import is one change in the history, and undo takes it all back', async () => {
    const productId = await newGuide(apis[t], `${t} undo`);
    const a = await call('import_spots', { productId, format: 'geojson', content: mixedGeojson, linesAs: 'route' });
    assertOk(a);
    const routes = await call('list_routes', { productId });
    assert.deepEqual(
      routes.body.routes.map((r: { name: string; trackFigures: { pointCount: number } }) => [
        r.name,
        r.trackFigures.pointCount,
      ]),
      [['Levada do Rei', 4]],
    );
    assert.deepEqual((await call('list_hikes', { productId })).body.hikes, []);
    const listed = await call('list_changes', { productId, limit: 1 });
    const [change] = listed.body.changes;
    assert.equal(change.operation, 'import_spots');
    assertOk(await call('undo_changes', { productId, changeIds: [change.changeId] }));
    assert.deepEqual(await spotsOf(productId), []);
    assert.deepEqual((await call('list_routes', { productId })).body.routes, []);
  });

  it('collectionsFrom folders: each folder joins the collection of its name, made when the guide has none', async () => {
    const productId = await newGuide(apis[t], `${t} folders`);
    const lakes = await call('create_chapter', { productId, name: 'Lakes', kind: 'collection' });
    assertOk(lakes, 201);
    const csv =
      'name,lat,lon,folder\nLake Bled,46.3636,14.0938,Lakes\nSavica,46.2922,13.7967,Waterfalls\n' +
      'Lake Bohinj,46.2833,13.8833,Lakes\nVintgar,46.3933,14.0847,\n';
    const args = { productId, format: 'csv', content: csv, collectionsFrom: 'folders' };
    const dry = await call('import_spots', { ...args, dryRun: true });
    assertOk(dry);
    assert.deepEqual([dry.body.addedToCollection, dry.body.collectionsCreated], [3, 1]);
    assert.equal((await call('list_chapters', { productId })).body.chapters.length, 1, 'a dry run makes none');
    const a = await call('import_spots', args);
    assertOk(a);
    assert.deepEqual([a.body.created, a.body.addedToCollection, a.body.collectionsCreated], [4, 3, 1]);
    const chapters = (await call('list_chapters', { productId })).body.chapters;
    assert.deepEqual(
      chapters.map((c: { name: string; kind: string; members: Array<{ spotKey: string }> }) => [
        c.name,
        c.kind,
        c.members.map((m) => m.spotKey),
      ]),
      [
        ['Lakes', 'collection', ['lake-bled', 'lake-bohinj']],
        ['Waterfalls', 'collection', ['savica']],
      ],
    );
    const changes = await changesOf(productId);
    const again = await call('import_spots', args);
    assertOk(again);
    assert.deepEqual([again.body.unchanged, again.body.addedToCollection, again.body.collectionsCreated], [4, 0, 0]);
    assert.equal(await changesOf(productId), changes);
  });

  it("another creator's guide is not found, like a missing one; a bad area or collection is refused", async () => {
    const productId = await newGuide(apis[t], `${t} owned`);
    const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
    try {
      const theirs = await bob.call('import_spots', { productId, format: 'csv', content: spreadsheetCsv });
      const missing = await bob.call('import_spots', {
        productId: 'gd_missing',
        format: 'csv',
        content: spreadsheetCsv,
      });
      assertNotFoundAlike([
        [theirs, productId],
        [missing, 'gd_missing'],
      ]);
    } finally {
      await bob.close();
    }
    assertError(
      await call('import_spots', { productId, format: 'csv', content: spreadsheetCsv, areaId: 'ar_nope' }),
      'invalid_request',
      'areaId',
    );
    assertError(
      await call('import_spots', { productId, format: 'csv', content: spreadsheetCsv, collectionId: 'col_nope' }),
      'invalid_request',
      'collectionId',
    );
    assert.deepEqual(await spotsOf(productId), []);
  });
});
