import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { ApiError, refuse } from '../../src/core/errors.ts';
import { type ZipEntry, type ZipFault, type ZipLimits, ZipReader } from '../../src/resources/files/zip-reader.ts';
import { fixture } from './files.ts';
import { asZip64, declaringCompressed, declaringSize, encrypted, garbled, renamed, withMethod } from './zip-surgery.ts';

/**
 * The zip reader both KMZ and guide archives go through: each defence refuses with its fault's
 * kind, so a caller can word it. The callers' own words are tested in kmz.test.ts and
 * archive-hostile.test.ts.
 */

const limits = (more: Partial<ZipLimits> = {}): ZipLimits => ({
  entries: 10,
  entryBytes: () => 1000,
  totalBytes: 1500,
  ratio: 200,
  // The kind first, so a test can match it; the reader's own sentence after.
  refuse: (fault: ZipFault) =>
    refuse('zip', `${fault.kind}${'entry' in fault ? ` ${fault.entry.name}` : ''}: ${fault.sentence}`),
  ...more,
});

/** Opens the zip and inflates every entry: the reader's answer, or its refusal's message. */
function readAll(zip: Uint8Array, more: Partial<ZipLimits> = {}): Buffer[] | string {
  try {
    const reader = new ZipReader(zip, limits(more));
    reader.checkSizes(reader.entries);
    return reader.entries.map((entry) => reader.inflate(entry));
  } catch (err) {
    assert.ok(err instanceof ApiError, `only the caller's refusal is thrown, not ${String(err)}`);
    return err.message;
  }
}

const refused = (zip: Uint8Array, kind: RegExp, more?: Partial<ZipLimits>) => {
  const answer = readAll(zip, more);
  assert.equal(typeof answer, 'string', 'refused');
  assert.match(answer as string, kind);
};

const text = (s: string) => Buffer.from(s);
const sound = () => zipSync({ 'a.txt': text('hello '.repeat(20)), 'b/c.txt': text('world') });

describe('zip reader', () => {
  it('reads what the central directory lists, stored and deflated, byte for byte', () => {
    const zip = zipSync({ 'a.txt': text('hello '.repeat(20)), 'stored.bin': [new Uint8Array(10), { level: 0 }] });
    const reader = new ZipReader(zip, limits());
    assert.deepEqual(
      reader.entries.map((e) => [e.name, e.method, e.size]),
      [
        ['a.txt', 8, 120],
        ['stored.bin', 0, 10],
      ],
    );
    assert.deepEqual(
      reader.entries.map((e) => reader.inflate(e)),
      [text('hello '.repeat(20)), Buffer.alloc(10)],
    );
  });

  it('refuses what is not a zip, a ZIP64 archive, a damaged directory, and too many entries', () => {
    refused(text('not a zip at all, just text'), /^zip: not-zip: /);
    refused(text(''), /^zip: not-zip: /);
    refused(asZip64(sound()), /^zip: zip64: /);
    const zip = sound();
    refused(zip.subarray(0, zip.length - 10), /^zip: not-zip: /);
    refused(Buffer.concat([Buffer.alloc(0), zip.subarray(30)]), /^zip: directory: /);
    refused(sound(), /^zip: entries: holds 2 entries; at most 1/, { entries: 1 });
  });

  it('refuses names out of the archive, duplicates and encrypted entries while listing', () => {
    for (const name of ['../evil', 'a/../../evil', '/etc/passwd', 'C:\\evil.bat', '\\\\host\\share', 'nul\0.txt']) {
      refused(zipSync({ [name]: text('x') }), /^zip: name /);
    }
    refused(renamed(zipSync({ 'a.txt': text('1'), 'b.txt': text('2') }), 'b.txt', 'a.txt'), /^zip: duplicate a\.txt: /);
    refused(encrypted(sound(), 'a.txt'), /^zip: encrypted a\.txt: /);
  });

  it('refuses, before inflating, an entry past its cap or ratio, and entries past the total', () => {
    refused(zipSync({ 'a.txt': new Uint8Array(1001) }), /^zip: size a\.txt: declares 1001 bytes; at most 1000/);
    refused(zipSync({ 'a.txt': new Uint8Array(1000) }, { level: 9 }), /^zip: ratio a\.txt: /, { ratio: 10 });
    const two = zipSync({ 'a.txt': new Uint8Array(800), 'b.txt': new Uint8Array(800) });
    refused(two, /^zip: total: declares 1600 bytes once inflated; at most 1500/);
    // Inflating one at a time counts toward the same total.
    const reader = new ZipReader(two, limits());
    const [a, b] = reader.entries as [ZipEntry, ZipEntry];
    reader.inflate(a);
    assert.throws(() => reader.inflate(b), /^ApiError: zip: total: /);
    const noRatio = readAll(zipSync({ 'a.txt': new Uint8Array(1000) }, { level: 9 }), { ratio: undefined });
    assert.ok(Array.isArray(noRatio), 'without a ratio, the caps alone bound an entry');
  });

  it('refuses an entry that lies about its size, either way, without inflating past it', () => {
    const bomb = zipSync({ 'a.txt': new Uint8Array(16 * 1024 * 1024) }, { level: 9 });
    const started = performance.now();
    refused(declaringSize(bomb, 'a.txt', 100), /^zip: inflates-past a\.txt: inflates to more than the 100 bytes/, {
      ratio: undefined,
    });
    assert.ok(performance.now() - started < 500, 'stopped at once, not after inflating 16 MB');
    refused(declaringSize(sound(), 'a.txt', 121), /^zip: ends-early a\.txt: ends at 120 bytes, short of the 121/);
    const stored = zipSync({ 'a.bin': [new Uint8Array(10), { level: 0 }] });
    refused(declaringSize(stored, 'a.bin', 9), /^zip: inflates-past a\.bin: /);
  });

  it('refuses an entry cut short, damaged, named otherwise in its local header, or of another method', () => {
    refused(declaringCompressed(sound(), 'b/c.txt', 10_000), /^zip: cut-short b\/c\.txt: /);
    refused(garbled(sound(), 'a.txt'), /^zip: damaged a\.txt: is damaged: its deflated data cannot be read/);
    refused(renamed(sound(), 'a.txt', 'z.txt', 'local'), /^zip: damaged a\.txt: .*local header names another file/);
    refused(withMethod(sound(), 'a.txt', 12), /^zip: method a\.txt: uses compression method 12/);
  });

  it('answers every byte changed or file cut short with a refusal or the entries, never another error', () => {
    const kmz = fixture('my-maps.kmz');
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 2000; i++) {
      const copy = Buffer.from(kmz);
      for (let k = 1 + (next() % 3); k > 0; k--) copy[next() % copy.length] = next() % 256;
      readAll(copy, { entries: 1000, entryBytes: () => 1 << 20, totalBytes: 1 << 20 });
    }
    for (let length = 0; length < kmz.length; length += 7) readAll(kmz.subarray(0, length));
  });
});
