import assert from 'node:assert/strict';
import { it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { IMPORT_FEATURES_MAX } from '../../src/resources/files/imported-file.ts';
import { assertNotFoundAlike, assertOk } from '../helpers/answers.ts';
import { apiFor, describeOverTransports } from '../helpers/api.ts';
import { guideOf, newGuide } from '../helpers/fixtures.ts';
import { fixture, gpx, kml, placemark, point, text } from './files.ts';
import { refusedWhole, uploadImportFile } from './import-calls.ts';

/**
 * The real files creators bring, through import_spots itself: a Google My Maps KML with folders and
 * description tables, the same map as a KMZ upload, a Komoot tour; the hostile ones refused whole.
 */

const KMZ = { type: 'application/vnd.google-earth.kmz', name: 'my-maps.kmz' };

await describeOverTransports('files: import_spots with real KML, KMZ and GPX files', (suite, t) => {
  const { apis } = suite;
  const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);
  const listed = async (name: string, field: string, productId: string) => {
    const a = await call(name, name === 'list_spots' ? { productId, includeArchived: true } : { productId });
    assertOk(a);
    return a.body[field];
  };
  const upload = async (productId: string, bytes: Uint8Array, options = KMZ) => {
    const up = await uploadImportFile(suite.h, suite.h.alice.writeKey, productId, bytes, options);
    assertOk(up);
    return up.body.uploadId as string;
  };

  /** Imports again: nothing created or updated, no change in the history, not even the guide's stamp. */
  const changesNothing = async (productId: string, args: Record<string, unknown>) => {
    const before = {
      spots: await listed('list_spots', 'spots', productId),
      hikes: await listed('list_hikes', 'hikes', productId),
      chapters: await listed('list_chapters', 'chapters', productId),
      changes: (await call('list_changes', { productId })).body.changes.length,
      stamp: (await guideOf(apis[t], productId)).lastApiWriteAt,
    };
    suite.h.clock.set(new Date(suite.h.clock.now() + 60_000).toISOString());
    const again = await call('import_spots', { productId, ...args });
    assertOk(again);
    assert.deepEqual([again.body.created, again.body.updated], [0, 0], JSON.stringify(again.body));
    assert.ok(again.body.unchanged > 0);
    assert.deepEqual(
      {
        spots: await listed('list_spots', 'spots', productId),
        hikes: await listed('list_hikes', 'hikes', productId),
        chapters: await listed('list_chapters', 'chapters', productId),
        changes: (await call('list_changes', { productId })).body.changes.length,
        stamp: (await guideOf(apis[t], productId)).lastApiWriteAt,
      },
      before,
    );
  };

  /** What the My Maps layer gives a guide, read back through the API. */
  const myMapsGuide = async (productId: string) => ({
    spots: (await listed('list_spots', 'spots', productId)).map((s: any) => [s.name, s.lat, s.lon, s.description]),
    chapters: (await listed('list_chapters', 'chapters', productId)).map((c: any) => [
      c.name,
      c.kind,
      c.members.map((m: { spotKey: string }) => m.spotKey),
    ]),
    hikes: (await listed('list_hikes', 'hikes', productId)).map((h: any) => [h.name, h.trackFigures.pointCount]),
  });

  const MY_MAPS = {
    spots: [
      [
        'Rifugio Lagazuoi',
        46.5275208,
        12.0088451,
        'Hut at the top station of the cable car; the terrace looks over the Tofane.\n\n' +
          'Category: Hut\nOpen: June – October\nPhone: +39 0436 867303',
      ],
      [
        'Rifugio Averau',
        46.5034011,
        12.0347339,
        'Polenta with mushrooms & venison.\nBook ahead in August.\n\nCategory: Hut\nOpen: 10:00 – 17:00, closed on Mondays',
      ],
      // Its media link is the map app's, not a fact about the place.
      ['Cinque Torri', 46.5130322, 12.0522157, 'Best light an hour before sunset.'],
      [
        'Open-air museum of the Great War',
        46.5142855,
        12.0489712,
        'Trenches and tunnels restored on the Cinque Torri plateau.\n\nOpening hours: Always open\nEntry: Free',
      ],
    ],
    chapters: [
      ['Huts', 'collection', ['rifugio-lagazuoi', 'rifugio-averau']],
      ['Views & museums', 'collection', ['cinque-torri', 'open-air-museum-of-the-great-war']],
    ],
    hikes: [['Falzarego to Averau', 4]],
  };

  it('a Google My Maps KML: folders become collections; descriptions keep their text, then the table and ExtendedData facts a line each', async () => {
    const productId = await newGuide(apis[t], `${t} my maps`);
    const args = { format: 'kml', content: text('my-maps.kml'), collectionsFrom: 'folders' };
    const a = await call('import_spots', { productId, ...args });
    assertOk(a);
    assert.deepEqual(
      [a.body.created, a.body.skipped, a.body.addedToCollection, a.body.collectionsCreated],
      [5, 1, 4, 2],
      JSON.stringify(a.body),
    );
    const [skip] = a.body.items;
    assert.deepEqual([skip.where, skip.action], ['Placemark 5', 'skip']);
    assert.match(skip.reason, /polygon/i);
    assert.deepEqual(await myMapsGuide(productId), MY_MAPS);
    await changesNothing(productId, args);
  });

  it('the same map as a KMZ, uploaded then imported by uploadId, gives the same guide; again, nothing', async () => {
    const productId = await newGuide(apis[t], `${t} kmz`);
    const uploadId = await upload(productId, fixture('my-maps.kmz'));
    const args = { format: 'kml', uploadId, collectionsFrom: 'folders' };
    assertOk(await call('import_spots', { productId, ...args }));
    assert.deepEqual(await myMapsGuide(productId), MY_MAPS);
    await changesNothing(productId, args);
  });

  it('a Komoot tour: waypoints become spots, the track a hike with the figures a hike upload of the GPX gets', async () => {
    const productId = await newGuide(apis[t], `${t} komoot`);
    const content = text('komoot.gpx');
    const a = await call('import_spots', { productId, format: 'gpx', content });
    assertOk(a);
    assert.deepEqual([a.body.created, a.body.skipped], [4, 0]);
    assert.deepEqual(
      (await listed('list_spots', 'spots', productId)).map((s: any) => [
        s.spotKey,
        s.name,
        s.lat,
        s.lon,
        s.description,
      ]),
      [
        [
          'passo-falzarego',
          'Passo Falzarego',
          46.519012,
          12.0079,
          'Start at the pass; paid parking beside the cable car.',
        ],
        [
          'sass-de-stria-summit',
          'Sass de Stria summit',
          46.526131,
          12.016602,
          'Trenches of the Great War just below the top.\n\n' +
            'cmt: Short scramble, hands needed.\nlink: https://www.komoot.com/highlight/1234567',
        ],
        ['spring', 'Spring', 46.51325, 12.030114, 'Water all summer.'],
      ],
    );
    const uploaded = await call('create_hike', { productId, name: 'Uploaded', track: { gpx: content } });
    assertOk(uploaded, 201);
    const hikes = await listed('list_hikes', 'hikes', productId);
    const imported = hikes.find((h: any) => h.name === 'Sass de Stria loop from Passo Falzarego');
    const byUpload = hikes.find((h: any) => h.name === 'Uploaded');
    assert.ok(imported.trackFigures.gainM > 300, JSON.stringify(imported.trackFigures));
    assert.deepEqual(imported.trackFigures, byUpload.trackFigures, 'the same figures as the hike made from the file');
    assertOk(await call('delete_hike', { hikeId: byUpload.hikeId }));
    await changesNothing(productId, { format: 'gpx', content });
  });

  it('hostile KML and GPX sent as content are refused whole: entities, external entities, nesting, too many features', async () => {
    const api = apis[t];
    const content = (format: string, body: string) => ({ format, content: body });
    await refusedWhole(
      api,
      content('kml', text('billion-laughs.kml')),
      'invalid_request',
      'content',
      /&lol9;.*never expanded/,
    );
    await refusedWhole(api, content('gpx', text('external-entity.gpx')), 'invalid_request', 'content', /&xxe;/);
    const nested = `${'<Folder>'.repeat(100)}${placemark(point('12,46'))}${'</Folder>'.repeat(100)}`;
    await refusedWhole(api, content('kml', kml(nested)), 'invalid_request', 'content', /more than 64 deep/);
    const deepGpx = `<wpt lat="46" lon="12"><extensions>${'<x>'.repeat(100)}${'</x>'.repeat(100)}</extensions></wpt>`;
    await refusedWhole(api, content('gpx', gpx(deepGpx)), 'invalid_request', 'content', /more than 64 deep/);
    const many = IMPORT_FEATURES_MAX + 1;
    const placemarks = placemark(`<name>P</name>${point('12,46')}`).repeat(many);
    await refusedWhole(api, content('kml', kml(placemarks)), 'invalid_request', 'content', /more than 5,000 features/);
    const waypoints = '<wpt lat="46" lon="12"><name>W</name></wpt>'.repeat(many);
    await refusedWhole(api, content('gpx', gpx(waypoints)), 'invalid_request', 'content', /more than 5,000 features/);
  });

  it('hostile KMZ uploads are refused at uploadId, whole: a zip bomb, a path out of the archive, 5,001 features', async () => {
    const api = apis[t];
    const uploaded = (bytes: Uint8Array) => async (productId: string) => ({
      format: 'kml',
      uploadId: await upload(productId, bytes),
    });
    const bomb = zipSync({ 'doc.kml': new Uint8Array(5 * 1024 * 1024) }, { level: 9 });
    await refusedWhole(api, uploaded(bomb), 'invalid_request', 'uploadId', /compressed more than 200 times/);
    await refusedWhole(api, uploaded(fixture('path-traversal.kmz')), 'invalid_request', 'uploadId', /a path out/);
    // Names and positions that differ, so it compresses as a real layer does, not as a bomb.
    const many = Array.from({ length: IMPORT_FEATURES_MAX + 1 }, (_, i) =>
      placemark(`<name>${(i * 7919).toString(36)}</name>${point(`12.${(i * 104_729) % 99_991},46.${i}`)}`),
    );
    const crowded = strToU8(kml(many.join('')));
    await refusedWhole(
      api,
      uploaded(zipSync({ 'doc.kml': crowded })),
      'invalid_request',
      'uploadId',
      /more than 5,000 features/,
    );
    const entities = strToU8(text('billion-laughs.kml'));
    await refusedWhole(api, uploaded(zipSync({ 'doc.kml': entities })), 'invalid_request', 'uploadId', /&lol9;/);
  });

  it("another creator's guide is not found like a missing one, for a KML sent and a KMZ uploaded", async () => {
    const productId = await newGuide(apis[t], `${t} not bobs`);
    const uploadId = await upload(productId, fixture('my-maps.kmz'));
    const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
    try {
      const sent = { format: 'kml', content: text('my-maps.kml') };
      const bobUploads = (id: string) =>
        uploadImportFile(suite.h, suite.h.bob.writeKey, id, fixture('my-maps.kmz'), KMZ);
      assertNotFoundAlike([
        [await bob.call('import_spots', { productId, ...sent }), productId],
        [await bob.call('import_spots', { productId, format: 'kml', uploadId }), productId],
        [await bob.call('import_spots', { productId: 'gd_missing', ...sent }), 'gd_missing'],
        [await bobUploads(productId), productId],
        [await bobUploads('gd_missing'), 'gd_missing'],
      ]);
    } finally {
      await bob.close();
    }
    assert.equal((await guideOf(apis[t], productId)).spotCount, 0);
  });
});
