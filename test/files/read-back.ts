import assert from 'node:assert/strict';
import { gpx, kml } from '@tmcw/togeojson';
import { DOMParser, type Document } from '@xmldom/xmldom';

/**
 * Exported files read back by readers this service does not share code with: @tmcw/togeojson
 * (what web maps use to open KML and GPX) on @xmldom/xmldom, and an RFC 7946 check of GeoJSON.
 */

/** A route's line (with elevations, 7 decimals) and a hike's (without), as exports must give them back. */
export const ROUTE_LINE = [
  [14.0938457, 46.3636123, 480],
  [14.1123456, 46.3812345, 520.5],
  [14.1334567, 46.3923456, 610],
];
export const HIKE_LINE = [
  [13.8856001, 46.2833002],
  [13.9012345, 46.2954321],
  [13.9223456, 46.3065432],
];

export interface Downloaded {
  status: number;
  contentType: string | null;
  disposition: string | null;
  cacheControl: string | null;
  text: string;
  bytes: number;
}

export async function download(url: string): Promise<Downloaded> {
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    cacheControl: res.headers.get('cache-control'),
    text: body.toString('utf8'),
    bytes: body.length,
  };
}

/** An XML document parsed strictly: any well-formedness error fails the test. */
export function parseXml(text: string): Document {
  const errors: string[] = [];
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  });
  const doc = parser.parseFromString(text, 'text/xml');
  assert.deepEqual(errors, [], 'well-formed XML');
  return doc;
}

/** togeojson is typed for the browser's DOM; xmldom's is the same interface for what it reads. */
type TheirDocument = Parameters<typeof kml>[0];

export const kmlFeatures = (text: string) => kml(parseXml(text) as unknown as TheirDocument).features as any[];
export const gpxFeatures = (text: string) => gpx(parseXml(text) as unknown as TheirDocument).features as any[];

function assertPosition(p: unknown, where: string): void {
  assert.ok(Array.isArray(p) && (p.length === 2 || p.length === 3), `${where}: a position`);
  const [lon, lat] = p as number[];
  assert.ok(
    p.every((n) => typeof n === 'number' && Number.isFinite(n)),
    `${where}: numbers`,
  );
  assert.ok(Math.abs(lon as number) <= 180 && Math.abs(lat as number) <= 90, `${where}: in range, lon first`);
}

/** RFC 7946's shape for what the export writes: a FeatureCollection of Points, LineStrings and null geometries. */
export function assertGeoJson(fc: any): void {
  assert.equal(fc.type, 'FeatureCollection');
  assert.ok(Array.isArray(fc.features));
  for (const [i, f] of (fc.features as any[]).entries()) {
    const where = `features[${i}]`;
    assert.equal(f.type, 'Feature', where);
    assert.ok(typeof f.id === 'string' || typeof f.id === 'number', `${where}.id`);
    assert.ok(f.properties === null || (typeof f.properties === 'object' && !Array.isArray(f.properties)));
    if (f.geometry === null) continue;
    if (f.geometry.type === 'Point') assertPosition(f.geometry.coordinates, where);
    else if (f.geometry.type === 'LineString') {
      assert.ok(f.geometry.coordinates.length >= 2, `${where}: a line has two positions or more`);
      for (const p of f.geometry.coordinates) assertPosition(p, where);
    } else assert.fail(`${where}: unexpected geometry ${f.geometry.type}`);
  }
}
