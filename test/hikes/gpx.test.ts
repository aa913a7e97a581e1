import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGpx } from '../../src/shared/tracks/gpx.ts';
import { INPUT_POINTS_MAX } from '../../src/shared/tracks/track.schema.ts';
import { assertError } from '../helpers/answers.ts';
import { thrown } from '../helpers/refusals.ts';

const PATH = 'track.gpx';

const gpx = (body: string, head = '<?xml version="1.0" encoding="UTF-8"?>\n') =>
  `${head}<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">${body}</gpx>`;
const pt = (lat: number, lon: number, ele?: number | string, tag = 'trkpt') =>
  `<${tag} lat="${lat}" lon="${lon}">${ele === undefined ? '' : `<ele>${ele}</ele>`}<time>2026-07-14T06:00:00Z</time></${tag}>`;
const seg = (...points: string[]) => `<trkseg>${points.join('')}</trkseg>`;
const trk = (...segments: string[]) => `<trk><name>Hike</name>${segments.join('')}</trk>`;

/** parseGpx refuses the text: invalid_request at track.gpx, the details naming that path alone. */
function assertGpxRefused(text: string, hint: RegExp): void {
  const err = thrown(() => parseGpx(text, PATH));
  assertError(err, 'invalid_request', PATH, { hint });
  assert.deepEqual(err.details, { path: PATH });
}

describe('GPX input', () => {
  it('reads trk/trkseg/trkpt with ele as [lon, lat, ele], joining segments in order', () => {
    const text = gpx(
      trk(seg(pt(46.5, 11.8, 1500), pt(46.501, 11.801, 1510.5)), seg(pt(46.502, 11.802, 1520))) +
        '<wpt lat="10" lon="10"><name>Hut</name></wpt>',
    );
    const { points, warnings } = parseGpx(text, PATH);
    assert.deepEqual(points, [
      [11.8, 46.5, 1500],
      [11.801, 46.501, 1510.5],
      [11.802, 46.502, 1520],
    ]);
    assert.deepEqual(warnings, []);
  });

  it('joins several tracks in file order and says so', () => {
    const text = gpx(trk(seg(pt(46.5, 11.8), pt(46.6, 11.9))) + trk(seg(pt(46.7, 12.0), pt(46.8, 12.1))));
    const { points, warnings } = parseGpx(text, PATH);
    assert.deepEqual(points, [
      [11.8, 46.5],
      [11.9, 46.6],
      [12.0, 46.7],
      [12.1, 46.8],
    ]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /2 tracks; they were joined in file order/);
  });

  it('falls back to route points when there is no track point', () => {
    const text = gpx(
      `<trk><name>empty</name></trk><rte><name>Planned</name>${pt(46.5, 11.8, 1500, 'rtept')}${pt(46.6, 11.9, 1700, 'rtept')}</rte>`,
    );
    assert.deepEqual(parseGpx(text, PATH).points, [
      [11.8, 46.5, 1500],
      [11.9, 46.6, 1700],
    ]);
    // With a track, the route is ignored.
    const both = gpx(
      `${trk(seg(pt(1, 2), pt(3, 4)))}<rte>${pt(46.5, 11.8, 1, 'rtept')}${pt(46.6, 11.9, 1, 'rtept')}</rte>`,
    );
    assert.deepEqual(parseGpx(both, PATH).points, [
      [2, 1],
      [4, 3],
    ]);
  });

  it('reads GPX 1.0, prefixed names and no XML declaration', () => {
    const text =
      '<gpx:gpx xmlns:gpx="http://www.topografix.com/GPX/1/0" version="1.0"><gpx:trk><gpx:trkseg>' +
      '<gpx:trkpt lat="46.5" lon="11.8"><gpx:ele>1500</gpx:ele></gpx:trkpt>' +
      '<gpx:trkpt lat="-46.6" lon="-11.9"><gpx:ele>-12.5</gpx:ele></gpx:trkpt>' +
      '</gpx:trkseg></gpx:trk></gpx:gpx>';
    assert.deepEqual(parseGpx(text, PATH).points, [
      [11.8, 46.5, 1500],
      [-11.9, -46.6, -12.5],
    ]);
  });

  it('fills points missing <ele> from their neighbours along the ground, with a warning', () => {
    const text = gpx(
      trk(
        seg(
          pt(46.5, 11.8),
          pt(46.5, 11.801, 1000),
          pt(46.5, 11.802),
          pt(46.5, 11.804),
          pt(46.5, 11.805, 1100),
          pt(46.5, 11.806),
        ),
      ),
    );
    const { points, warnings } = parseGpx(text, PATH);
    assert.deepEqual(
      points.map((p) => p[2]),
      [1000, 1000, 1025, 1075, 1100, 1100],
    );
    assert.deepEqual(warnings, [
      '4 of 6 GPX points had no <ele>; their elevations were interpolated from the points around them.',
    ]);
  });

  it('keeps a line without any elevation flat', () => {
    const { points, warnings } = parseGpx(gpx(trk(seg(pt(46.5, 11.8), pt(46.6, 11.9)))), PATH);
    assert.deepEqual(points, [
      [11.8, 46.5],
      [11.9, 46.6],
    ]);
    assert.deepEqual(warnings, []);
  });

  it('refuses malformed XML, saying where', () => {
    assertGpxRefused(
      gpx(trk(seg(pt(46.5, 11.8), '<trkpt lat="46.6" lon="11.9">'))),
      /not well-formed XML at line 2, column \d+: .*trkpt/,
    );
    assertGpxRefused('this is not xml', /not well-formed XML at line 1/);
    assertGpxRefused(`${gpx(trk(seg(pt(1, 2), pt(3, 4))))}<gpx/>`, /not well-formed XML/);
    assertGpxRefused('<gpx><trk></gpx>', /not well-formed XML/);
    assertGpxRefused(gpx(trk(seg(pt(1, 2), '<trkpt lat=46.6 lon="11.9"/>'))), /not well-formed XML/);
  });

  it('refuses another kind of document, and a GPX without a line', () => {
    assertGpxRefused(
      '<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>',
      /not a GPX document: its root element is <kml>/,
    );
    assertGpxRefused(gpx('<wpt lat="1" lon="2"/>'), /no track points \(trk\/trkseg\/trkpt\) and no route points/);
    assertGpxRefused(gpx(trk(seg())), /no track points/);
    assertGpxRefused(gpx(trk(seg(pt(46.5, 11.8)))), /only one point/);
  });

  it('refuses a point out of range or unreadable, naming it as it stands in the file', () => {
    assertGpxRefused(
      gpx(trk(seg(pt(46.5, 11.8)), seg(pt(46.5, 11.8), pt(91, 11.8)))),
      /track 1, segment 2, point 2: latitude 91 is outside -90 to 90\.$/,
    );
    assertGpxRefused(
      gpx(trk(seg(pt(46.5, 11.8), pt(46.5, -180.5)))),
      /point 2: longitude -180.5 is outside -180 to 180/,
    );
    assertGpxRefused(
      gpx(trk(seg(pt(46.5, 11.8, 9500), pt(46.5, 11.8)))),
      /point 1: elevation 9500 m is outside -500 to 9000/,
    );
    assertGpxRefused(gpx(trk(seg(pt(46.5, 11.8), pt(46.5, 11.8, 'high')))), /point 2: <ele> "high" is not a number/);
    assertGpxRefused(gpx(trk(seg('<trkpt lon="11.8"/>', pt(46.5, 11.8)))), /point 1: the lat attribute is missing/);
    assertGpxRefused(
      gpx(trk(seg('<trkpt lat="0x10" lon="11.8"/>', pt(46.5, 11.8)))),
      /the lat attribute "0x10" is not a number/,
    );
    assertGpxRefused(
      gpx(trk(seg('<trkpt lat="" lon="11.8"/>', pt(46.5, 11.8)))),
      /the lat attribute "" is not a number/,
    );
    assertGpxRefused(
      gpx(`<rte>${pt(46.5, 11.8, 1, 'rtept')}${pt(46.5, 200, 1, 'rtept')}</rte>`),
      /route 1, point 2: longitude 200/,
    );
  });

  it(`refuses more than ${INPUT_POINTS_MAX.toLocaleString('en')} points`, () => {
    const many = '<trkpt lat="1" lon="2"/>'.repeat(INPUT_POINTS_MAX + 1);
    assertGpxRefused(gpx(trk(seg(many))), /more than 100,000 points/);
  });

  it('never expands entities: billion laughs is refused at once, and nothing is read from outside', () => {
    const laughs = [
      '<!DOCTYPE gpx [',
      '<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => {
        const prev = i === 0 ? '&lol;' : `&lol${i};`;
        return `<!ENTITY lol${i + 1} "${prev.repeat(10)}">`;
      }),
      ']>',
    ].join('\n');
    const bomb = `<?xml version="1.0"?>\n${laughs}\n${gpx(trk(seg(pt(46.5, 11.8), `<trkpt lat="46.6" lon="11.9"><name>&lol9;</name></trkpt>`)), '')}`;
    const started = performance.now();
    assertGpxRefused(bomb, /not well-formed XML.*entity/i);
    assert.ok(performance.now() - started < 500, 'refused without expanding anything');

    const external = `<?xml version="1.0"?>\n<!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n${gpx(
      trk(seg(pt(46.5, 11.8), `<trkpt lat="46.6" lon="11.9"><name>&xxe;</name></trkpt>`)),
      '',
    )}`;
    assertGpxRefused(external, /not well-formed XML.*entity/i);
  });

  it('refuses at once a number that would make a backtracking pattern crawl, and nesting past the stack', () => {
    const started = performance.now();
    assertGpxRefused(gpx(trk(seg(`<trkpt lat="${'1'.repeat(200_000)}x" lon="2"/>`, pt(1, 2)))), /is not a number/);
    assertGpxRefused(gpx(`${'<x>'.repeat(300_000)}${'</x>'.repeat(300_000)}`), /nests elements more than 64 deep/);
    assert.ok(performance.now() - started < 2000, 'both refused in one pass over the text');
  });

  it('reads a document with a DOCTYPE but no entity reference as any other', () => {
    const text = `<?xml version="1.0"?>\n<!DOCTYPE gpx [<!ENTITY lol "lol">]>\n${gpx(trk(seg(pt(1, 2), pt(3, 4))), '')}`;
    assert.equal(parseGpx(text, PATH).points.length, 2);
  });
});
