import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { readKml } from '../../src/resources/files/formats/kml.ts';
import { KMZ_ENTRIES_MAX, readKmz } from '../../src/resources/files/formats/kmz.ts';
import type { ImportedFile } from '../../src/resources/files/imported-file.ts';
import { assertRefused, fixture, kml, placemark, point, text } from './files.ts';
import { asZip64, declaringCompressed, declaringSize, encrypted, garbled, renamed, withMethod } from './zip-surgery.ts';

describe('KMZ reader', () => {
  const icon = new Uint8Array(64);

  it('reads doc.kml of a My Maps KMZ as the KML itself', () => {
    assert.deepEqual(readKmz(fixture('my-maps.kmz')), readKml(text('my-maps.kml')));
  });

  it('takes doc.kml, else the first .kml at the root, and refuses a zip without one', () => {
    const one = (name: string) => strToU8(kml(placemark(`<name>${name}</name>${point('1,2')}`)));
    const names = (file: ImportedFile) => file.features.map((f) => f.name);
    assert.deepEqual(names(readKmz(zipSync({ 'a.kml': one('a'), 'doc.kml': one('doc') }))), ['doc']);
    assert.deepEqual(names(readKmz(zipSync({ 'files/x.kml': one('x'), 'b.KML': one('b'), 'c.kml': one('c') }))), ['b']);
    assertRefused(
      () => readKmz(zipSync({ 'files/doc.kml': one('x'), 'icon.png': icon })),
      /without a \.kml file at its root/,
    );
  });

  it('refuses a path out of the archive, absolute or relative, before inflating anything', () => {
    assertRefused(() => readKmz(fixture('path-traversal.kmz')), /"\.\.\/\.\.\/etc\/cron\.d\/evil", a path out/);
    assertRefused(() => readKmz(zipSync({ 'doc.kml': strToU8(kml('')), '/etc/passwd': icon })), /"\/etc\/passwd"/);
    assertRefused(() => readKmz(zipSync({ 'doc.kml': strToU8(kml('')), 'C:\\evil.bat': icon })), /evil\.bat/);
  });

  it('refuses a zip bomb: by its declared size and ratio, and when it inflates past what it declares', () => {
    const zeros = new Uint8Array(6 * 1024 * 1024);
    assertRefused(() => readKmz(zipSync({ 'doc.kml': zeros }, { level: 9 })), /KML of 6,291,456 bytes/);
    const bomb = zipSync({ 'doc.kml': zeros.subarray(0, 5 * 1024 * 1024) }, { level: 9 });
    assertRefused(() => readKmz(bomb), /compressed more than 200 times/);
    // The same bomb declaring 1,000 bytes in its central directory: inflating stops there.
    const lying = Uint8Array.from(bomb);
    const view = new DataView(lying.buffer);
    for (let at = lying.length - 22; at >= 0; at--) {
      if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 1000, true);
    }
    assertRefused(() => readKmz(lying), /inflates past the size it declares/, 500);
  });

  it(`refuses more than ${KMZ_ENTRIES_MAX} entries, what is not a zip, and a KML that is not UTF-8`, () => {
    const crowd = Object.fromEntries(Array.from({ length: KMZ_ENTRIES_MAX + 1 }, (_, i) => [`i/${i}.png`, icon]));
    assertRefused(() => readKmz(zipSync({ ...crowd, 'doc.kml': strToU8(kml('')) })), /more than 1000 files/);
    assertRefused(() => readKmz(strToU8(kml(''))), /not a readable KMZ/);
    const latin1 = Uint8Array.from([
      ...strToU8(kml(placemark('<name>Caf'))),
      0xe9,
      ...strToU8('</name></Placemark></Document></kml>'),
    ]);
    assertRefused(() => readKmz(zipSync({ 'doc.kml': latin1 })), /not UTF-8/);
  });

  // The archive reader's defences, which the KMZ reader shares since both are one zip reader.
  it('refuses duplicate names, an encrypted or ZIP64 zip, a KML cut short, damaged or named twice', () => {
    const doc = strToU8(kml(placemark(`<name>A</name>${point('1,2')}`)));
    const zip = zipSync({ 'doc.kml': doc, 'abc.kml': icon });
    assertRefused(() => readKmz(renamed(zip, 'abc.kml', 'doc.kml')), /holds two files named doc\.kml/);
    assertRefused(() => readKmz(encrypted(zip, 'doc.kml')), /holds doc\.kml, which is encrypted/);
    assertRefused(() => readKmz(asZip64(zip)), /is not a readable KMZ \(zip\) file: it is a ZIP64 archive/);
    assertRefused(
      () => readKmz(zip.subarray(0, zip.length - 30)),
      /is not a readable KMZ \(zip\) file: it is not a zip/,
    );
    assertRefused(() => readKmz(declaringCompressed(zip, 'doc.kml', 100_000)), /holds doc\.kml, which is cut short/);
    assertRefused(() => readKmz(garbled(zip, 'doc.kml')), /holds doc\.kml, which is damaged/);
    assertRefused(() => readKmz(renamed(zip, 'doc.kml', 'evi.kml', 'local')), /local header names another file/);
    assertRefused(() => readKmz(declaringSize(zip, 'doc.kml', doc.length + 1)), /which ends at \d+ bytes, short of/);
    assertRefused(
      () => readKmz(withMethod(zip, 'doc.kml', 12)),
      /compresses doc\.kml with method 12; a KMZ uses deflate/,
    );
  });
});
