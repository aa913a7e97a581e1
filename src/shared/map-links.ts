import { z } from 'zod';
import { parseUrl } from './urls.ts';

/**
 * Map links a buyer's phone opens in a map app: https on one of the big map providers' hosts, or
 * a geo: URI (RFC 5870). Path prefixes keep general-purpose hosts (google.com) to their map pages.
 */
export const mapHostAllowlist: ReadonlyArray<{ host: string; pathPrefix?: string }> = [
  { host: 'maps.google.com' },
  { host: 'google.com', pathPrefix: '/maps' },
  { host: 'maps.app.goo.gl' },
  { host: 'goo.gl', pathPrefix: '/maps' },
  { host: 'maps.apple.com' },
  { host: 'maps.apple' },
  { host: 'openstreetmap.org' },
  { host: 'osm.org' },
  { host: 'bing.com', pathPrefix: '/maps' },
  { host: 'wego.here.com' },
  { host: 'share.here.com' },
  { host: 'waze.com' },
  { host: 'mapy.cz' },
  { host: 'mapy.com' },
  { host: 'komoot.com' },
  { host: 'yandex.com', pathPrefix: '/maps' },
];

const GEO_URI = /^geo:(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)(?:,-?\d+(?:\.\d+)?)?(?:;[^?]*)?(?:\?.*)?$/i;

export function isGeoUri(text: string): boolean {
  const m = GEO_URI.exec(text);
  if (!m) return false;
  const [lat, lon] = [Number(m[1]), Number(m[2])];
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/** Whether an https address is on an allowlisted map host (any subdomain, e.g. www.). */
export function isAllowlistedMapUrl(text: string): boolean {
  const url = /^https:\/\//i.test(text) ? parseUrl(text) : undefined;
  if (url?.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return mapHostAllowlist.some(
    (entry) =>
      (host === entry.host || host.endsWith(`.${entry.host}`)) &&
      (entry.pathPrefix === undefined || url.pathname.startsWith(entry.pathPrefix)),
  );
}

const allowlistText =
  'https on a map host (Google Maps, Apple Maps, OpenStreetMap, Bing, HERE, Waze, Mapy, komoot) or a geo: URI';

/** https on an allowlisted map host, or geo:lat,lon. */
export const mapsUrlSchema = z
  .string()
  .max(2000)
  .refine((s) => isGeoUri(s) || isAllowlistedMapUrl(s), { message: `must be ${allowlistText}` })
  .describe(`A map link: ${allowlistText}`);
