import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { assertError } from '../helpers/answers.ts';
import { thrown } from '../helpers/refusals.ts';

/** Files for the readers' tests: the fixtures beside this file, and small KML and GPX built in place. */

export const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
export const text = (name: string) => fixture(name).toString('utf8');

/** The reader refuses the file: 400 at `content`, saying `hint`, within `ms` (hostile files cost little). */
export function assertRefused(read: () => unknown, hint: RegExp, ms = 5000): void {
  const started = performance.now();
  const err = thrown(read);
  const took = performance.now() - started;
  assertError(err, 'invalid_request', 'content', { hint, pathInDetails: true });
  assert.ok(took < ms, `refused in ${Math.round(took)} ms, more than ${ms}`);
}

/** A reader's answer within `ms`. */
export function timed<T>(read: () => T, ms: number): T {
  const started = performance.now();
  const result = read();
  const took = performance.now() - started;
  assert.ok(took < ms, `read in ${Math.round(took)} ms, more than ${ms}`);
  return result;
}

export const kml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>${body}</Document></kml>`;
export const placemark = (inner: string, attributes = '') => `<Placemark${attributes}>${inner}</Placemark>`;
export const point = (coordinates: string) => `<Point><coordinates>${coordinates}</coordinates></Point>`;
export const gpx = (body: string) =>
  `<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">${body}</gpx>`;
