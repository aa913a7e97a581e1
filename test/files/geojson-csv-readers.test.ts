import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCsv } from '../../src/resources/files/formats/csv.ts';
import { readGeojson } from '../../src/resources/files/formats/geojson.ts';
import { derivedKey } from '../../src/resources/files/import-plan.ts';
import { assertError } from '../helpers/answers.ts';

const places = (text: string) =>
  readCsv(text).features.map((f) => (f.kind === 'point' ? [f.name, f.lat, f.lon] : ['line']));

describe('files: the CSV reader', () => {
  it('reads any delimiter, with or without a byte order mark, CRLF or LF', () => {
    const rows = [['Bled', 46.3636, 14.0938]];
    assert.deepEqual(places('name,lat,lon\nBled,46.3636,14.0938\n'), rows);
    assert.deepEqual(places('\uFEFFName\tLatitude\tLongitude\r\nBled\t46.3636\t14.0938\r\n'), rows);
    assert.deepEqual(places('title|lat|lng\nBled|46.3636|14.0938'), rows);
    assert.deepEqual(places('name;lat;lon\nBled;46,3636;14,0938\n'), rows, 'a decimal comma beside semicolons');
  });

  it('takes one position column: WKT POINT (lon lat) or "lat, lon" as map apps copy it', () => {
    assert.deepEqual(places('name,WKT\nBled,POINT (14.0938 46.3636)\n'), [['Bled', 46.3636, 14.0938]]);
    assert.deepEqual(places('name,location\nBled,"46.3636, 14.0938"\n'), [['Bled', 46.3636, 14.0938]]);
  });

  it('keeps cells as written: other columns as properties, an empty cell left out, an id column as the file id', () => {
    const [row] = readCsv('id,name,lat,lon,Notes,Parking\n7, Bled ,46,14,"a, b",\n').features;
    assert.ok(row?.kind === 'point');
    assert.equal(row.name, ' Bled ');
    assert.equal(row.sourceId, '7');
    assert.deepEqual(row.properties, { Notes: 'a, b' });
    assert.equal(row.where, 'row 2');
  });

  it('refuses a header without a name or a position, a cell that is not a number, an unclosed quote', () => {
    assertError(
      capture(() => readCsv('lat,lon\n1,2\n')),
      'invalid_request',
      'content',
      { hint: /no name column/ },
    );
    assertError(
      capture(() => readCsv('name,x\nA,1\n')),
      'invalid_request',
      'content',
      { hint: /names no position/ },
    );
    assertError(
      capture(() => readCsv('name,lat,lon\nA,0x1F,2\n')),
      'invalid_request',
      'content',
      {
        hint: /row 2: latitude "0x1F" is not a number/,
      },
    );
    assertError(
      capture(() => readCsv('name,lat,lon\n"A,1,2\n')),
      'invalid_request',
      'content',
      { hint: /quote/ },
    );
  });
});

describe('files: the GeoJSON reader', () => {
  it('reads one Feature as well as a collection, its id as the file id', () => {
    const file = readGeojson(
      JSON.stringify({
        type: 'Feature',
        id: 12,
        properties: { title: 'Bled' },
        geometry: { type: 'Point', coordinates: [14, 46] },
      }),
    );
    assert.deepEqual(file.features, [
      {
        where: 'feature 1',
        folder: undefined,
        name: 'Bled',
        description: undefined,
        sourceId: '12',
        properties: {},
        kind: 'point',
        lon: 14,
        lat: 46,
      },
    ]);
  });

  it('refuses a position that is not [lon, lat]', () => {
    const bad = JSON.stringify({
      type: 'Feature',
      properties: {},
      geometry: { type: 'Point', coordinates: ['14', 46] },
    });
    assertError(
      capture(() => readGeojson(bad)),
      'invalid_request',
      'content',
      { hint: /feature 1: a position/ },
    );
  });
});

describe('files: keys derived from the file alone', () => {
  it('slugs a name; text without a Latin letter gets a hash of itself, the same every time', () => {
    assert.equal(derivedKey('Cabo Girão'), 'cabo-girao');
    assert.match(derivedKey('東京タワー'), /^spot-[0-9a-f]{12}$/);
    assert.equal(derivedKey('東京タワー'), derivedKey('東京タワー'));
    assert.notEqual(derivedKey('東京タワー'), derivedKey('富士山'));
  });
});

/** The ApiError a reader throws. */
function capture(read: () => unknown) {
  try {
    read();
  } catch (err) {
    return err as Parameters<typeof assertError>[0];
  }
  throw new Error('the reader accepted the file');
}
