import assert from 'node:assert/strict';
import { it } from 'node:test';
import { IMPORT_FEATURES_MAX } from '../../src/resources/files/imported-file.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { describeOverTransports } from '../helpers/api.ts';
import { guideOf, newGuide, times } from '../helpers/fixtures.ts';
import { rest } from '../helpers/http.ts';
import { refusedWhole } from './import-calls.ts';
import { spreadsheetCsv } from './import-files.ts';

const point = (name: string, lon: number, lat: number) => ({
  type: 'Feature',
  properties: { name },
  geometry: { type: 'Point', coordinates: [lon, lat] },
});
const collection = (features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features });

await describeOverTransports(
  'files: import_spots refuses hostile files whole',
  (suite, t) => {
    const { apis } = suite;

    it('coordinates off the globe, in GeoJSON and in CSV, name where in the file', async () => {
      const content = collection([point('Fine', 14, 46), point('Off', 14, 146)]);
      await refusedWhole(
        apis[t],
        { format: 'geojson', content },
        'invalid_request',
        'content',
        /feature 2: latitude 146/,
      );
      const csv = 'name,lat,lon\nFine,46,14\nOff,46,214\n';
      await refusedWhole(
        apis[t],
        { format: 'csv', content: csv },
        'invalid_request',
        'content',
        /row 3: longitude 214/,
      );
      const words = 'name,lat,lon\nWords,north,14\n';
      await refusedWhole(
        apis[t],
        { format: 'csv', content: words },
        'invalid_request',
        'content',
        /row 2: latitude "north" is not a number/,
      );
    });

    it('text read in the wrong encoding somewhere (U+FFFD) is refused rather than stored as is', async () => {
      const content = spreadsheetCsv.replace('Vršič', 'Vr\uFFFDi\uFFFD');
      await refusedWhole(apis[t], { format: 'csv', content }, 'invalid_request', 'content', /UTF-8/);
    });

    it(`more than ${IMPORT_FEATURES_MAX} features is refused before any is written`, async () => {
      const content = collection(times(IMPORT_FEATURES_MAX + 1, (i) => point(`P${i}`, 14, 46)));
      await refusedWhole(
        apis[t],
        { format: 'geojson', content },
        'invalid_request',
        'content',
        /more than 5,000 features/,
      );
      const rows = times(IMPORT_FEATURES_MAX + 1, (i) => `P${i},46,14`).join('\n');
      await refusedWhole(
        apis[t],
        { format: 'csv', content: `name,lat,lon\n${rows}` },
        'invalid_request',
        'content',
        /split the file/,
      );
    });

    it('not the format it says, no name or position column, a format the service does not read', async () => {
      await refusedWhole(
        apis[t],
        { format: 'geojson', content: '<kml/>' },
        'invalid_request',
        'content',
        /not valid JSON/,
      );
      await refusedWhole(
        apis[t],
        { format: 'geojson', content: '{"type":"Topology"}' },
        'invalid_request',
        'content',
        /FeatureCollection/,
      );
      await refusedWhole(
        apis[t],
        { format: 'csv', content: 'title,x,y\nA,1,2\n' },
        'invalid_request',
        'content',
        /names no position/,
      );
      await refusedWhole(
        apis[t],
        { format: 'csv', content: 'lat,lon\n1,2\n' },
        'invalid_request',
        'content',
        /no name column/,
      );
      await refusedWhole(
        apis[t],
        { format: 'kml', content: '{"type":"FeatureCollection"}' },
        'invalid_request',
        'content',
        /XML/i,
      );
      await refusedWhole(apis[t], { format: 'shp', content: 'x' }, 'invalid_argument', 'format', /geojson/);
    });

    it('the file comes once: content or uploadId; pages are for dry runs', async () => {
      await refusedWhole(apis[t], { format: 'csv' }, 'invalid_request', 'content', /one of them/);
      await refusedWhole(
        apis[t],
        { format: 'csv', content: spreadsheetCsv, uploadId: 'upl_x' },
        'invalid_request',
        'content',
        /one of them/,
      );
      await refusedWhole(
        apis[t],
        { format: 'csv', content: spreadsheetCsv, cursor: 'abc' },
        'invalid_argument',
        'cursor',
        /cursor/,
      );
    });
  },
  (suite) => {
    it('a JSON body over 2 MB is refused before it is read (413)', async () => {
      const productId = await newGuide(suite.apis.rest, 'too big');
      const content = `name,lat,lon\n${'x'.repeat(2 * 1024 * 1024)},46,14\n`;
      const a = await rest(suite.h.baseUrl, suite.h.alice.writeKey, 'POST', `/guides/${productId}/import`, {
        format: 'csv',
        content,
      });
      assertError(a, 'payload_too_large');
      assert.equal((await guideOf(suite.apis.rest, productId)).spotCount, 0);
      assertOk(await suite.apis.rest.call('get_guide', { productId }));
    });
  },
);
