import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readGpx } from '../../src/resources/files/formats/gpx.ts';
import { readKml } from '../../src/resources/files/formats/kml.ts';
import { IMPORT_FEATURES_MAX, type ImportedFile } from '../../src/resources/files/imported-file.ts';
import { parseGpx } from '../../src/shared/tracks/gpx.ts';
import { prepareTrack } from '../../src/shared/tracks/track.ts';
import { measureTrack } from '../../src/shared/tracks/track-figures.ts';
import { XML_DEPTH_MAX } from '../../src/shared/xml.ts';
import { assertRefused, gpx, kml, placemark, point, text, timed } from './files.ts';

const byName = (file: ImportedFile, name: string) => file.features.find((f) => f.name === name);

describe('KML reader: a Google My Maps export', () => {
  const file = readKml(text('my-maps.kml'));

  it('reads the points with their folder, the line, and skips the polygon with a reason', () => {
    assert.deepEqual(
      file.features.map((f) => [f.where, f.kind, f.name, f.folder]),
      [
        ['Placemark 1', 'point', 'Rifugio Lagazuoi', 'Huts'],
        ['Placemark 2', 'point', 'Rifugio Averau', 'Huts'],
        ['Placemark 3', 'point', 'Cinque Torri', 'Views & museums'],
        ['Placemark 4', 'point', 'Open-air museum of the Great War', 'Views & museums'],
        ['Placemark 6', 'line', 'Falzarego to Averau', 'Walks'],
      ],
    );
    assert.deepEqual(file.skipped, [{ where: 'Placemark 5', reason: file.skipped[0]?.reason }]);
    assert.match(file.skipped[0]!.reason, /polygon/);
  });

  it('keeps positions as written, and drops the altitudes a clamped-to-ground line ignores', () => {
    const hut = byName(file, 'Rifugio Lagazuoi');
    assert.ok(hut?.kind === 'point');
    assert.deepEqual([hut.lon, hut.lat], [12.0088451, 46.5275208]);
    const walk = byName(file, 'Falzarego to Averau');
    assert.ok(walk?.kind === 'line');
    assert.deepEqual(walk.points, [
      [12.0079, 46.519],
      [12.0158, 46.5127],
      [12.0241, 46.5083],
      [12.0347339, 46.5034011],
    ]);
  });

  it('takes ExtendedData and the description lines as properties, the rest of the description as text', () => {
    const lagazuoi = byName(file, 'Rifugio Lagazuoi')!;
    assert.equal(lagazuoi.description, 'Hut at the top station of the cable car; the terrace looks over the Tofane.');
    assert.deepEqual(lagazuoi.properties, { Category: 'Hut', Open: 'June – October', Phone: '+39 0436 867303' });
    const averau = byName(file, 'Rifugio Averau')!;
    assert.equal(averau.description, 'Polenta with mushrooms & venison.\nBook ahead in August.');
    assert.deepEqual(averau.properties, { Category: 'Hut', Open: '10:00 – 17:00, closed on Mondays' });
  });

  it('reads an HTML table as properties and strips images and markup from the text', () => {
    const museum = byName(file, 'Open-air museum of the Great War')!;
    assert.deepEqual(museum.properties, { 'Opening hours': 'Always open', Entry: 'Free' });
    assert.equal(museum.description, 'Trenches and tunnels restored on the Cinque Torri plateau.');
    assert.equal(museum.sourceId, 'museum-5-torri');
    const torri = byName(file, 'Cinque Torri')!;
    assert.equal(torri.description, 'Best light an hour before sunset.');
    assert.match(String(torri.properties.gx_media_links), /^https:\/\/mymaps\.usercontent/);
  });
});

describe('KML reader: shapes of KML', () => {
  it('reads SchemaData/SimpleData, and ExtendedData wins over the description for one key', () => {
    const file = readKml(
      kml(
        placemark(
          `<name>Bakery</name><description><![CDATA[Price: 2 €<br>Fresh at 7.]]></description>
           <ExtendedData><Data name="Price"><value>2.50 €</value></Data>
           <SchemaData schemaUrl="#s"><SimpleData name="Stars">4</SimpleData><SimpleData name="__proto__">odd</SimpleData></SchemaData></ExtendedData>
           ${point('2.35,48.85')}`,
        ),
      ),
    );
    const [bakery] = file.features;
    assert.equal(bakery?.description, 'Fresh at 7.');
    assert.deepEqual(Object.entries(bakery!.properties), [
      ['Price', '2.50 €'],
      ['Stars', '4'],
      ['__proto__', 'odd'],
    ]);
  });

  it('keeps the text of sloppy markup: a cell outside any row, entities, no script', () => {
    const file = readKml(
      kml(
        placemark(
          `<description><![CDATA[<td>Loose cell</td> &amp; more<script>alert(1)</script><br>Last]]></description>`,
        ),
      ),
    );
    assert.equal(file.features[0]?.description, 'Loose cell & more\nLast');
  });

  it('keeps a description without markup exactly as written', () => {
    const file = readKml(
      kml(placemark(`<name>Plain</name><description>Note: no HTML here.\nTwo lines.</description>${point('1,2')}`)),
    );
    assert.equal(file.features[0]?.description, 'Note: no HTML here.\nTwo lines.');
    assert.deepEqual(file.features[0]?.properties, {});
  });

  it('splits a MultiGeometry into its points and lines, numbering where and sourceId', () => {
    const file = readKml(
      kml(
        placemark(
          `<name>Two entrances</name><MultiGeometry>${point('10,45')}${point('10.1,45.1')}
           <LineString><coordinates>10,45 10.1,45.1</coordinates></LineString>
           <Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></MultiGeometry>`,
          ' id="gate"',
        ),
      ),
    );
    assert.deepEqual(
      file.features.map((f) => [f.where, f.kind, f.sourceId, f.name]),
      [
        ['Placemark 1, geometry 1', 'point', 'gate-1', 'Two entrances'],
        ['Placemark 1, geometry 2', 'point', 'gate-2', 'Two entrances'],
        ['Placemark 1, geometry 3', 'line', 'gate-3', 'Two entrances'],
      ],
    );
    assert.deepEqual(
      file.skipped.map((s) => s.where),
      ['Placemark 1, geometry 4'],
    );
  });

  it('joins nested folder names, passing over unnamed folders', () => {
    const file = readKml(
      kml(
        `<Folder><name>Italy</name><Folder><Folder><name>Rome</name>${placemark(`<name>Forum</name>${point('12.48,41.89')}`)}</Folder></Folder></Folder>` +
          placemark(`<name>Loose</name>${point('1,2')}`),
      ),
    );
    assert.deepEqual(
      file.features.map((f) => f.folder),
      ['Italy / Rome', undefined],
    );
  });

  it('gives a Placemark without geometry as a point without position, for the import to name', () => {
    const [feature] = readKml(kml(placemark('<name>Somewhere</name>'))).features;
    assert.ok(feature?.kind === 'point');
    assert.deepEqual([feature.lon, feature.lat, feature.name], [undefined, undefined, 'Somewhere']);
  });

  it('keeps altitudes as elevations only when absolute, and reads a gx:Track as a line', () => {
    const file = readKml(
      kml(
        placemark(
          '<LineString><altitudeMode>absolute</altitudeMode><coordinates>11,46,1500 11.01,46.01,1600</coordinates></LineString>',
        ) +
          placemark(
            '<LineString><altitudeMode>relativeToGround</altitudeMode><coordinates>11,46,15 11.01,46.01,16</coordinates></LineString>',
          ) +
          placemark(
            '<gx:Track><altitudeMode>absolute</altitudeMode><when>2026-07-01T10:00:00Z</when><when>2026-07-01T10:01:00Z</when><gx:coord>11 46 1500</gx:coord><gx:coord>11.001 46.001 1504.5</gx:coord></gx:Track>',
          ),
      ),
    );
    assert.deepEqual(
      file.features.map((f) => (f.kind === 'line' ? f.points : [])),
      [
        [
          [11, 46, 1500],
          [11.01, 46.01, 1600],
        ],
        [
          [11, 46],
          [11.01, 46.01],
        ],
        [
          [11, 46, 1500],
          [11.001, 46.001, 1504.5],
        ],
      ],
    );
  });

  it('skips network links and overlays with a reason', () => {
    const file = readKml(
      kml(
        '<NetworkLink><Link><href>http://127.0.0.1:9/x.kml</href></Link></NetworkLink><GroundOverlay><Icon><href>map.png</href></Icon></GroundOverlay>',
      ),
    );
    assert.deepEqual(file.features, []);
    assert.deepEqual(
      file.skipped.map((s) => s.where),
      ['NetworkLink 1', 'GroundOverlay 1'],
    );
    assert.match(file.skipped[0]!.reason, /not fetch/);
  });
});

describe('KML reader: hostile and broken files', () => {
  it('refuses coordinates out of range or unreadable, naming the Placemark', () => {
    assertRefused(
      () => readKml(kml(placemark(point('12,95')))),
      /Placemark 1, coordinate 1: latitude 95 .*is outside -90 to 90/,
    );
    assertRefused(() => readKml(kml(placemark(point('181,45')))), /longitude 181/);
    assertRefused(() => readKml(kml(placemark(point('0x1F,45')))), /"0x1F" is not a number/);
    assertRefused(() => readKml(kml(placemark(point('12')))), /is not lon,lat/);
  });

  it('refuses what is not XML, and XML that is not KML', () => {
    assertRefused(() => readKml('name,lat,lon\nHut,46,12'), /not well-formed XML/);
    assertRefused(() => readKml(text('komoot.gpx')), /not a KML document: its root element is <gpx>/);
  });

  it('never expands or fetches entities: billion laughs and external entities are refused at once', () => {
    assertRefused(() => readKml(text('billion-laughs.kml')), /not well-formed XML.*&lol9;.*never expanded/, 500);
    const external = kml(placemark('<name>&xxe;</name>')).replace(
      '<kml',
      '<!DOCTYPE kml [<!ENTITY xxe SYSTEM "http://127.0.0.1:9/secret">]>\n<kml',
    );
    assertRefused(() => readKml(external), /&xxe;/, 500);
  });

  it(`refuses nesting deeper than ${XML_DEPTH_MAX}, and nesting that would exhaust the stack`, () => {
    const folders = (n: number) => `${'<Folder>'.repeat(n)}${placemark(point('1,2'))}${'</Folder>'.repeat(n)}`;
    assert.equal(readKml(kml(folders(XML_DEPTH_MAX - 5))).features.length, 1);
    assertRefused(() => readKml(kml(folders(XML_DEPTH_MAX))), /nests elements more than 64 deep/);
    assertRefused(() => readKml(kml(folders(250_000))), /nests elements more than 64 deep/);
  });

  it(`stops at ${IMPORT_FEATURES_MAX.toLocaleString('en')} features: 100,000 Placemarks are refused`, () => {
    // 1.2 MB: the most Placemarks a 2 MB body holds.
    assertRefused(() => readKml(kml('<Placemark/>'.repeat(100_000))), /more than 5,000 features/);
    const polygons = placemark('<Polygon/>').repeat(IMPORT_FEATURES_MAX + 1);
    assertRefused(() => readKml(kml(polygons)), /more than 5,000 features/);
    assert.equal(
      readKml(kml(placemark(point('1,2')).repeat(IMPORT_FEATURES_MAX))).features.length,
      IMPORT_FEATURES_MAX,
    );
  });

  it('reads hostile descriptions and coordinates in one pass', () => {
    // 600,000 unclosed tags (quadratic for a parser keeping open tags) and 1 MB of spaces in
    // <coordinates> (quadratic for a /^\s*|\s*$/ trim) each read in well under a second.
    const tags = timed(
      () => readKml(kml(placemark(`<description><![CDATA[${'<b>'.repeat(600_000)}x]]></description>`))),
      1500,
    );
    assert.equal(tags.features[0]?.description, 'x');
    const spaced = timed(
      () => readKml(kml(placemark(`<Point><coordinates>1,2${' '.repeat(1_000_000)}</coordinates></Point>`))),
      1500,
    );
    assert.equal(spaced.features.length, 1);
  });
});

describe('GPX reader: a Komoot tour with its places', () => {
  const content = text('komoot.gpx');
  const file = readGpx(content);

  it('reads waypoints in file order, with desc as description and the rest as properties', () => {
    assert.deepEqual(
      file.features.filter((f) => f.kind === 'point'),
      [
        {
          kind: 'point',
          where: 'waypoint 1',
          name: 'Passo Falzarego',
          description: 'Start at the pass; paid parking beside the cable car.',
          sourceId: undefined,
          properties: { type: 'Highlight', sym: 'Parking Area', ele: 2105 },
          folder: undefined,
          lon: 12.0079,
          lat: 46.519012,
        },
        {
          kind: 'point',
          where: 'waypoint 2',
          name: 'Sass de Stria summit',
          description: 'Trenches of the Great War just below the top.',
          sourceId: undefined,
          properties: {
            cmt: 'Short scramble, hands needed.',
            sym: 'Summit',
            link: 'https://www.komoot.com/highlight/1234567',
            ele: 2477.417,
          },
          folder: undefined,
          lon: 12.016602,
          lat: 46.526131,
        },
        {
          kind: 'point',
          where: 'waypoint 3',
          name: 'Spring',
          description: 'Water all summer.',
          sourceId: undefined,
          properties: {},
          folder: undefined,
          lon: 12.030114,
          lat: 46.51325,
        },
      ],
    );
  });

  it('reads the track as the line a hike reads from the same file, with the same figures', async () => {
    const [track] = file.features.filter((f) => f.kind === 'line');
    assert.ok(track?.kind === 'line');
    assert.equal(track.name, 'Sass de Stria loop from Passo Falzarego');
    assert.equal(track.points.length, 161);
    assert.deepEqual(track.points[0], [12.0079, 46.519, 2105]);
    assert.deepEqual(track.points, parseGpx(content, 'track.gpx').points);
    const hike = await prepareTrack({ gpx: content }, 'track');
    assert.deepEqual(measureTrack(track.points), hike.figures);
    assert.ok(hike.figures.gainM !== null && hike.figures.gainM > 300, JSON.stringify(hike.figures));
  });
});

describe('GPX reader: shapes and hostile files', () => {
  const trkpt = (lat: number, lon: number, ele?: number) =>
    `<trkpt lat="${lat}" lon="${lon}">${ele === undefined ? '' : `<ele>${ele}</ele>`}</trkpt>`;

  it('gives each track and route its own line, settling missing elevations as a hike does', () => {
    const file = readGpx(
      gpx(
        `<rte><name>Planned</name><rtept lat="46" lon="11"/><rtept lat="46.1" lon="11.1"/></rte>` +
          `<trk><name>Day 1</name><trkseg>${trkpt(46, 11, 1000)}${trkpt(46.01, 11, 1100)}</trkseg><trkseg>${trkpt(46.02, 11)}${trkpt(46.03, 11, 1300)}</trkseg></trk>` +
          `<trk><name>Day 2</name><trkseg>${trkpt(46.1, 11.1)}${trkpt(46.2, 11.2)}</trkseg></trk>` +
          `<trk><name>Lost fix</name><trkseg>${trkpt(46, 11)}</trkseg></trk>`,
      ),
    );
    assert.deepEqual(
      file.features.map((f) => [f.where, f.name, f.kind === 'line' ? f.points.length : 0]),
      [
        ['route 1', 'Planned', 2],
        ['track 1', 'Day 1', 4],
        ['track 2', 'Day 2', 2],
      ],
    );
    const day1 = file.features[1];
    assert.ok(day1?.kind === 'line');
    assert.equal(day1.points[2]![2], 1200);
    assert.deepEqual(file.skipped, [{ where: 'track 3', reason: 'it has only one point; a line needs at least two' }]);
  });

  it('refuses a waypoint out of range, another root, and an external entity', () => {
    assertRefused(() => readGpx(gpx('<wpt lat="91" lon="12"><name>North</name></wpt>')), /waypoint 1: latitude 91/);
    assertRefused(() => readGpx(text('my-maps.kml')), /not a GPX document: its root element is <kml>/);
    assertRefused(() => readGpx(text('external-entity.gpx')), /&xxe;/, 500);
  });

  it('refuses a number that would make a backtracking pattern crawl, at once', () => {
    assertRefused(() => readGpx(gpx(`<wpt lat="${'1'.repeat(200_000)}x" lon="12"/>`)), /is not a number/, 500);
  });

  it(`stops at ${IMPORT_FEATURES_MAX.toLocaleString('en')} features, and at nesting deeper than ${XML_DEPTH_MAX}`, () => {
    assertRefused(() => readGpx(gpx('<wpt lat="46" lon="12"/>'.repeat(100_000))), /more than 5,000 features/);
    const deep = `<extensions>${'<x>'.repeat(300_000)}${'</x>'.repeat(300_000)}</extensions>`;
    assertRefused(() => readGpx(gpx(`<wpt lat="46" lon="12">${deep}</wpt>`)), /nests elements more than 64 deep/);
  });
});
