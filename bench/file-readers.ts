/**
 * What a hostile file costs import_spots' readers (issue 30; docs/decisions/files.md, Readers): the
 * worst shapes of file each format allows, about 2 MB each (a KMZ inflating to 5 MB), each read in a
 * child process of its own so one shape's garbage and high-water mark do not count for the next.
 * Per shape: the CPU time of one read and the peak memory it added (the process's maximum resident
 * set during the read over its resident set before). Goal: every shape under READ_CPU_GOAL_MS and
 * READ_PEAK_GOAL_MB. `BENCH_ONLY=import npm run bench`, or alone: `node bench/file-readers.ts`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { readCsv } from '../src/resources/files/formats/csv.ts';
import { readGeojson } from '../src/resources/files/formats/geojson.ts';
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
/** A shape of file: its name, and the file made (outside the measurement) with the read to measure. */
type Shape = [name: string, make: () => () => unknown];
const text = (read: (content: string) => unknown, make: () => string) => () => {
  const content = make();
  return () => read(content);
};
const zipped = (make: () => Uint8Array) => () => {
  const zip = make();
  return () => readKmz(zip);
};
const smallElements = () => Array.from({ length: 400_000 }, (_, i) => `<a i="${(i * 7919) % 999_983}"/>`).join('');
const geojson = (value: unknown) => JSON.stringify(value);

export const readerShapes: Shape[] = [
  ['KML, 2 MB of empty elements in one Placemark', text(readKml, () => kml(`<Placemark>${fill('<a/>')}</Placemark>`))],
  ['KML, 2 MB of empty Placemarks', text(readKml, () => kml(fill('<Placemark/>')))],
  ['KML, 4,999 My Maps Placemarks', text(readKml, () => kml(myMapsPlacemark.repeat(4999)))],
  [
    'KML, one LineString of 100,000 points',
    text(readKml, () =>
      kml(
        `<Placemark><LineString><coordinates>${'12.1234567,41.1234567 '.repeat(100_000)}</coordinates></LineString></Placemark>`,
      ),
    ),
  ],
  [
    'KML, 2 MB description of unclosed tags',
    text(readKml, () => kml(`<Placemark><description><![CDATA[${fill('<b>')}]]></description></Placemark>`)),
  ],
  ['KML, 2 MB of nesting', text(readKml, () => kml(`${fill('<a>', MB)}${fill('</a>', (MB / 3) * 4)}`))],
  [
    'GPX, 2 MB of track points',
    text(readGpx, () =>
      gpx(`<trk><trkseg>${fill('<trkpt lat="46.1234567" lon="12.1234567"><ele>1234.5</ele></trkpt>')}</trkseg></trk>`),
    ),
  ],
  ['GPX, 2 MB of waypoints', text(readGpx, () => gpx(fill('<wpt lat="46" lon="12"/>')))],
  [
    'GeoJSON, 4,999 Points with 2 MB of properties',
    text(readGeojson, () =>
      geojson({
        type: 'FeatureCollection',
        features: Array.from({ length: 4999 }, (_, i) => ({
          type: 'Feature',
          properties: Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`p${k}`, i])),
          geometry: { type: 'Point', coordinates: [12 + i / 1e4, 46] },
        })),
      }),
    ),
  ],
  [
    'GeoJSON, a MultiPoint of 2 MB of points',
    text(readGeojson, () =>
      geojson({
        type: 'Feature',
        properties: { name: 'Many' },
        geometry: { type: 'MultiPoint', coordinates: Array.from({ length: 90_000 }, () => [12.1234567, 46.1234567]) },
      }),
    ),
  ],
  [
    'CSV, 4,999 rows of 2 MB of one-character cells',
    text(readCsv, () => `name,lat,lon,${fill('x,', 400)}\n${`a,46,12,${fill('x,', 400)}\n`.repeat(4999)}`),
  ],
  ['CSV, 2 MB of quoted cells', text(readCsv, () => `name,lat,lon\n${fill('"a""b",46,12\n')}`)],
  [
    'KMZ, 5 MB KML of small elements',
    zipped(() =>
      zipSync({ 'doc.kml': strToU8(kml(`<Placemark>${smallElements().slice(0, 5 * MB - 100)}</Placemark>`)) }),
    ),
  ],
  ['KMZ, 200 MB of zeros declaring 1,000 bytes', zipped(() => lyingBomb(200_000_000))],
];

/** CPU time and peak memory a read may cost, set from measurements on this 2-core machine with margin. */
export const READ_CPU_GOAL_MS = 2000;
export const READ_PEAK_GOAL_MB = 600;

interface ShapeCost {
  cpuMs: number;
  peakMb: number;
  outcome: string;
}

/** Child side: reads shape `index` once and prints its cost as JSON. */
function measureShape(index: number): ShapeCost {
  const [, make] = readerShapes[index] as Shape;
  const read = make();
  // The file itself is made before: only the read is measured, from a collected heap.
  (globalThis as { gc?: () => void }).gc?.();
  const rss = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  let outcome = 'read';
  try {
    read();
  } catch (err) {
    outcome = `refused: ${(err as Error).message.slice('content: '.length, 70)}`;
  }
  const used = process.cpuUsage(cpu);
  // maxRSS is the high-water mark in KiB: the peak during the read, whatever was collected since.
  const peakMb = Math.max(0, process.resourceUsage().maxRSS * 1024 - rss) / 1e6;
  return { cpuMs: (used.user + used.system) / 1000, peakMb, outcome };
}

function inChild(index: number): Promise<ShapeCost> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), String(index)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(out) as ShapeCost);
      else reject(new Error(`${readerShapes[index]?.[0]}: exit ${code}: ${err.slice(0, 500)}`));
    });
  });
}

export interface FileReadersCost {
  lines: string[];
  below: boolean;
}

/** Every shape in its own child, one after the other; a line each, and whether any broke the goal. */
export async function benchFileReaders(): Promise<FileReadersCost> {
  const lines = [
    `Import readers on hostile files, one child per shape (goal: < ${READ_CPU_GOAL_MS} ms CPU, < ${READ_PEAK_GOAL_MB} MB peak)`,
  ];
  let below = false;
  for (const [index, [name]] of readerShapes.entries()) {
    const cost = await inChild(index);
    const ok = cost.cpuMs < READ_CPU_GOAL_MS && cost.peakMb < READ_PEAK_GOAL_MB;
    below ||= !ok;
    lines.push(
      `  ${name.padEnd(48)} ${cost.cpuMs.toFixed(0).padStart(5)} ms ${cost.peakMb.toFixed(0).padStart(4)} MB  ` +
        `${ok ? 'PASS' : 'BELOW'}  ${cost.outcome}`,
    );
  }
  return { lines, below };
}

if (import.meta.main) {
  const index = process.argv[2];
  if (index === undefined) process.stdout.write(`${(await benchFileReaders()).lines.join('\n')}\n`);
  else process.stdout.write(JSON.stringify(measureShape(Number(index))));
}
