/**
 * The import readers on the worst shapes of file each format allows (docs/decisions/files.md,
 * Readers): CPU time of one read and heap growth (garbage included, so an upper bound), per shape.
 * Not yet a row of `npm run bench`: run alone, `node --expose-gc bench/file-readers.ts`.
 */
import { strToU8, zipSync } from 'fflate';
import { readGpx } from '../src/resources/files/formats/gpx.ts';
import { readKml } from '../src/resources/files/formats/kml.ts';
import { readKmz } from '../src/resources/files/formats/kmz.ts';

const MB = 1024 * 1024;
const fill = (unit: string, size = 2 * MB) => unit.repeat(Math.floor(size / unit.length));
const kml = (body: string) => `<kml><Document>${body}</Document></kml>`;
const gpx = (body: string) => `<gpx version="1.1" creator="bench">${body}</gpx>`;

/** A zip bomb: `bytes` of zeros in doc.kml, its central directory declaring 1,000 bytes. */
function lyingBomb(bytes: number): Uint8Array {
  const zip = zipSync({ 'doc.kml': new Uint8Array(bytes) }, { level: 9 });
  const view = new DataView(zip.buffer);
  for (let at = zip.length - 22; at >= 0; at--) {
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 1000, true);
  }
  return zip;
}

const myMapsPlacemark =
  '<Placemark><name>Spot</name><description><![CDATA[Category: Hut<br>Open: 9-5<br>Text]]></description>' +
  '<Point><coordinates>12.5,41.9,0</coordinates></Point></Placemark>';
const smallElements = Array.from({ length: 400_000 }, (_, i) => `<a i="${(i * 7919) % 999_983}"/>`).join('');

export const readerShapes: [string, () => unknown][] = [
  ['KML, 2 MB of empty elements in one Placemark', () => readKml(kml(`<Placemark>${fill('<a/>')}</Placemark>`))],
  ['KML, 2 MB of empty Placemarks', () => readKml(kml(fill('<Placemark/>')))],
  ['KML, 4,999 My Maps Placemarks', () => readKml(kml(myMapsPlacemark.repeat(4999)))],
  [
    'KML, one LineString of 100,000 points',
    () =>
      readKml(
        kml(
          `<Placemark><LineString><coordinates>${'12.1234567,41.1234567 '.repeat(100_000)}</coordinates></LineString></Placemark>`,
        ),
      ),
  ],
  [
    'KML, 2 MB description of unclosed tags',
    () => readKml(kml(`<Placemark><description><![CDATA[${fill('<b>')}]]></description></Placemark>`)),
  ],
  ['KML, 2 MB of nesting', () => readKml(kml(`${fill('<a>', MB)}${fill('</a>', (MB / 3) * 4)}`))],
  [
    'GPX, 2 MB of track points',
    () =>
      readGpx(
        gpx(
          `<trk><trkseg>${fill('<trkpt lat="46.1234567" lon="12.1234567"><ele>1234.5</ele></trkpt>')}</trkseg></trk>`,
        ),
      ),
  ],
  ['GPX, 2 MB of waypoints', () => readGpx(gpx(fill('<wpt lat="46" lon="12"/>')))],
  [
    'KMZ, 5 MB KML of small elements',
    (
      (zip) => () =>
        readKmz(zip)
    )(zipSync({ 'doc.kml': strToU8(kml(`<Placemark>${smallElements.slice(0, 5 * MB - 100)}</Placemark>`)) })),
  ],
  [
    'KMZ, 200 MB of zeros declaring 1,000 bytes',
    (
      (zip) => () =>
        readKmz(zip)
    )(lyingBomb(200_000_000)),
  ],
];

if (import.meta.main) {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (const [name, read] of readerShapes) {
    gc?.();
    const heap = process.memoryUsage().heapUsed;
    const cpu = process.cpuUsage();
    let outcome = 'read';
    try {
      read();
    } catch (err) {
      outcome = `refused: ${(err as Error).message.slice(9, 70)}`;
    }
    const used = process.cpuUsage(cpu);
    const grown = (process.memoryUsage().heapUsed - heap) / 1e6;
    console.log(
      `${name} | ${((used.user + used.system) / 1000).toFixed(0)} ms CPU | heap +${grown.toFixed(0)} MB | ${outcome}`,
    );
  }
}
