import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import type { ApiError } from '../../src/core/errors.ts';
import {
  DISPLAY_SIZES,
  MAX_INPUT_PIXELS,
  type ProcessedUpload,
  processUpload,
  renderRenditions,
} from '../../src/resources/media/image-pipeline.ts';
import { assertError } from '../helpers/answers.ts';
import {
  flat,
  halves,
  heicStart,
  metadataContainers,
  PHONE_EXIF,
  phoneJpeg,
  png16,
  pngBomb,
  tiff16,
} from '../helpers/images.ts';

/** The upload is refused: invalid_request about the file, its message matching `hint` (naming what is accepted). */
async function assertUploadRefused(work: Promise<unknown>, hint: RegExp): Promise<void> {
  const refusal = await work.then(
    () => assert.fail('nothing was refused'),
    (err: unknown) => err as ApiError,
  );
  assertError(refusal, 'invalid_request', undefined, { hint });
  assert.deepEqual(refusal.details, { path: 'file' });
}

/** The mean colour of a region of an image, to tell red from blue. */
async function meanColour(bytes: Buffer, region: { left: number; top: number; width: number; height: number }) {
  // stats() describes the whole input, whatever the pipeline: cut the region out first.
  const { channels } = await sharp(await sharp(bytes).extract(region).png().toBuffer()).stats();
  return channels.slice(0, 3).map((c) => Math.round(c.mean));
}

function sizes(upload: ProcessedUpload) {
  return Object.fromEntries(Object.entries(upload.files).map(([name, f]) => [name, [f.width, f.height]]));
}

describe('processUpload: what a phone sends', () => {
  it('applies orientation 6: a 300x200 photo stored sideways comes out 200x300, the right way up', async () => {
    const upload = await processUpload(await phoneJpeg(), 'image/jpeg');
    assert.equal(upload.width, 200);
    assert.equal(upload.height, 300);
    assert.deepEqual(sizes(upload), {
      original: [200, 300],
      large: [200, 300],
      medium: [200, 300],
      small: [200, 300],
    });
    // Stored red above blue, turned 90° clockwise for display: red on the right, blue on the left.
    for (const file of Object.values(upload.files)) {
      const [leftR, , leftB] = await meanColour(file.bytes, { left: 10, top: 100, width: 40, height: 100 });
      const [rightR, , rightB] = await meanColour(file.bytes, { left: 150, top: 100, width: 40, height: 100 });
      assert.ok(leftB! > 150 && leftR! < 80, `left should be blue, is ${leftR},${leftB}`);
      assert.ok(rightR! > 150 && rightB! < 80, `right should be red, is ${rightR},${rightB}`);
    }
  });

  it('reads capture date, GPS and credit before stripping, in camera-local time whatever the process zone', async () => {
    const zone = process.env.TZ;
    // 00:30 at +02:00 is the previous day in UTC and two days back on Kiritimati (+14): a Date
    // conversion anywhere would move the day.
    process.env.TZ = 'Pacific/Kiritimati';
    try {
      const upload = await processUpload(await phoneJpeg(), 'image/jpeg');
      assert.equal(upload.capturedOn, '2024-06-03');
      assert.equal(upload.capturedAt, '2024-06-03T00:30:00+02:00');
      assert.deepEqual(upload.takenAt, { lat: -46.5, lon: -11.76, precision: 'gps' });
      assert.equal(upload.suggestedCredit, 'Ana Trails');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('stores every file with no metadata at all: no EXIF, GPS, XMP or ICC profile', async () => {
    const input = await phoneJpeg();
    assert.deepEqual(metadataContainers(input), ['APP1:Exif', 'APP2:ICC_PROFILE']);
    const upload = await processUpload(input, 'image/jpeg');
    for (const [name, file] of Object.entries(upload.files)) {
      assert.deepEqual(metadataContainers(file.bytes), [], `${name} carries metadata`);
      const meta = await sharp(file.bytes).metadata();
      for (const field of ['exif', 'icc', 'xmp', 'iptc', 'orientation'] as const) {
        assert.equal(meta[field], undefined, `${name} has ${field}`);
      }
    }
    assert.equal(await exifr.parse(upload.files.original.bytes), undefined);
    assert.equal(await exifr.gps(upload.files.original.bytes), undefined);
  });

  it('answers the stored original: its size, format and content type; display sizes are WebP', async () => {
    const upload = await processUpload(await phoneJpeg(), 'image/jpeg');
    assert.equal(upload.format, 'jpeg');
    assert.equal(upload.sourceFormat, 'jpeg');
    assert.equal(upload.bytes, upload.files.original.bytes.length);
    assert.equal(upload.files.original.contentType, 'image/jpeg');
    for (const name of ['large', 'medium', 'small'] as const) {
      assert.equal(upload.files[name].contentType, 'image/webp');
      assert.equal((await sharp(upload.files[name].bytes).metadata()).format, 'webp');
    }
  });

  it('scales a large photo down to each display size and never up', async () => {
    const upload = await processUpload(await flat(3000, 2000).jpeg().toBuffer(), 'image/jpeg');
    assert.deepEqual(sizes(upload), {
      original: [3000, 2000],
      large: [DISPLAY_SIZES.large, 1365],
      medium: [DISPLAY_SIZES.medium, 683],
      small: [DISPLAY_SIZES.small, 267],
    });
    const middling = await processUpload(await flat(900, 1200).png().toBuffer(), 'image/png');
    assert.deepEqual(sizes(middling), {
      original: [900, 1200],
      large: [900, 1200],
      medium: [768, 1024],
      small: [300, 400],
    });
  });
});

describe('processUpload: each file kept as soon as it is encoded', () => {
  it('hands every file to keep once, and answers what keep made of each', async () => {
    const handed: string[] = [];
    const upload = await processUpload(await flat(3000, 2000).jpeg().toBuffer(), 'image/jpeg', async (name, r) => {
      handed.push(name);
      return `${r.contentType} ${r.width}x${r.height} ${r.bytes.length > 0}`;
    });
    assert.deepEqual(handed.toSorted(), ['large', 'medium', 'original', 'small']);
    assert.deepEqual(upload.files, {
      original: 'image/jpeg 3000x2000 true',
      large: 'image/webp 2048x1365 true',
      medium: 'image/webp 1024x683 true',
      small: 'image/webp 400x267 true',
    });
    assert.deepEqual([upload.width, upload.height, upload.format], [3000, 2000, 'jpeg']);
    assert.ok(upload.bytes > 0);
  });

  it('answers a failure of keep as it is, not as a refusal of the photo, once every other file was kept', async () => {
    const failure = new Error('the blob store refused the write');
    const kept: string[] = [];
    const work = processUpload(await flat(3000, 2000).jpeg().toBuffer(), 'image/jpeg', async (name) => {
      // The smallest size is encoded first: the others are still encoding when it fails.
      if (name === 'small') throw failure;
      kept.push(name);
      return name;
    });
    await assert.rejects(work, (err) => err === failure);
    // Nothing is handed over after the failure is answered, so the caller's clean-up sees every file.
    assert.deepEqual(kept.toSorted(), ['large', 'medium', 'original']);
  });
});

describe('processUpload: formats', () => {
  it('accepts PNG (kept as PNG, transparency too), WebP, AVIF and TIFF, stripping each', async () => {
    const cases = [
      {
        bytes: await flat(40, 30, '#80ff8080', 4).png().withExif(PHONE_EXIF).toBuffer(),
        type: 'image/png',
        format: 'png',
      },
      { bytes: await flat(40, 30).webp().withExif(PHONE_EXIF).toBuffer(), type: 'image/webp', format: 'webp' },
      { bytes: await flat(40, 30).avif().withExif(PHONE_EXIF).toBuffer(), type: 'image/avif', format: 'jpeg' },
      { bytes: await flat(40, 30, '#80ff8080', 4).avif().toBuffer(), type: 'image/heif', format: 'webp' },
      { bytes: await flat(40, 30).tiff().toBuffer(), type: 'image/tiff', format: 'jpeg' },
    ] as const;
    for (const { bytes, type, format } of cases) {
      const upload = await processUpload(bytes, type);
      assert.equal(upload.format, format, type);
      assert.deepEqual([upload.width, upload.height], [40, 30]);
      const original = await sharp(upload.files.original.bytes).metadata();
      assert.equal(original.format, format);
      for (const file of Object.values(upload.files)) assert.deepEqual(metadataContainers(file.bytes), [], type);
    }
    const fromPng = await processUpload(cases[0].bytes, 'image/png');
    assert.equal((await sharp(fromPng.files.original.bytes).metadata()).hasAlpha, true);
    assert.equal(fromPng.capturedOn, '2024-06-03', 'EXIF is read from PNG too');
    assert.equal((await processUpload(cases[2].bytes, 'image/avif')).suggestedCredit, 'Ana Trails');
  });

  it('lets the bytes decide when the content type is missing or generic, and ignores parameters', async () => {
    const png = await flat(20, 10).png().toBuffer();
    for (const type of [undefined, '', 'application/octet-stream', 'IMAGE/PNG; charset=binary']) {
      assert.equal((await processUpload(png, type)).sourceFormat, 'png', String(type));
    }
  });

  it('refuses bytes that are not what the content type says: PNG sent as image/jpeg', async () => {
    const png = await flat(20, 10).png().toBuffer();
    await assertUploadRefused(
      processUpload(png, 'image/jpeg'),
      /bytes are PNG but the content type says image\/jpeg.*Accepted/,
    );
  });

  it('refuses HEIC, saying why and what to send instead', async () => {
    await assertUploadRefused(
      processUpload(heicStart(), 'image/heic'),
      /HEIC.*JPEG.*Accepted photos: JPEG, PNG, WebP, AVIF/,
    );
    await assertUploadRefused(processUpload(heicStart(), undefined), /HEIC/);
  });

  it('refuses GIF, SVG, text and content types that are not photos', async () => {
    const gif = await flat(20, 10).gif().toBuffer();
    await assertUploadRefused(
      processUpload(gif, 'image/gif'),
      /content type "image\/gif" is not a photo type.*Accepted/,
    );
    await assertUploadRefused(processUpload(gif, undefined), /GIF is not accepted.*Accepted/);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await assertUploadRefused(processUpload(svg, undefined), /not an image in a format we accept.*Accepted/);
    await assertUploadRefused(processUpload(await flat(20, 10).jpeg().toBuffer(), 'text/plain'), /"text\/plain"/);
  });

  it('refuses a corrupt file: garbage, a JPEG cut short, a header with nothing after it', async () => {
    await assertUploadRefused(processUpload(Buffer.from('hello, not a photo'), undefined), /not an image/);
    await assertUploadRefused(processUpload(Buffer.alloc(0), undefined), /not an image/);
    const jpeg = await flat(400, 300, '#808080').jpeg().toBuffer();
    const twoColours = await halves(300, 200).jpeg().toBuffer();
    await assertUploadRefused(
      processUpload(twoColours.subarray(0, Math.floor(twoColours.length / 2)), 'image/jpeg'),
      /could not be read/,
    );
    await assertUploadRefused(processUpload(jpeg.subarray(0, 30), 'image/jpeg'), /could not be read/);
    const png = await flat(40, 30).png().toBuffer();
    const broken = Buffer.from(png);
    broken.fill(0x55, 60, 80); // inside the image data: the checksum no longer holds
    await assertUploadRefused(processUpload(broken, 'image/png'), /could not be read/);
  });
});

describe('processUpload: decompression bombs', () => {
  it('refuses a 20000x20000 PNG of 50 KB from its header, without the memory it asks for', async () => {
    const bomb = pngBomb();
    assert.ok(bomb.length < 100_000, `the bomb is ${bomb.length} bytes`);
    const before = process.memoryUsage.rss();
    const started = performance.now();
    await assertUploadRefused(processUpload(bomb, 'image/png'), /20000 x 20000 pixels \(400 megapixels\); at most 50/);
    assert.ok(performance.now() - started < 2000, 'refused at once');
    // Decoding it would take 400 MB at least.
    assert.ok(process.memoryUsage.rss() - before < 100e6, 'no decode happened');
  });

  it('is refused by sharp itself too, should a bomb get past the header check', async () => {
    const before = process.memoryUsage.rss();
    await assert.rejects(renderRenditions(pngBomb(), 'png'), /pixel limit/);
    assert.ok(process.memoryUsage.rss() - before < 100e6);
  });

  it('refuses just over the limit and accepts a plain PNG under it', async () => {
    const side = Math.floor(Math.sqrt(MAX_INPUT_PIXELS));
    await assertUploadRefused(processUpload(pngBomb(side + 1, side + 1), 'image/png'), /megapixels/);
    const small = await processUpload(pngBomb(2000, 1000), 'image/png');
    assert.deepEqual([small.width, small.height], [2000, 1000]);
  });

  it('refuses from the header what decodes to over 150 MB (16-bit RGBA of 7000 x 7000), whatever its pixel count', async () => {
    for (const bomb of [tiff16(7000, 7000, 4), png16(7000, 7000, 4)]) {
      assert.ok(bomb.length < 1e6, `${bomb.length} bytes on the wire`);
      const before = process.memoryUsage.rss();
      await assertUploadRefused(
        processUpload(bomb, undefined),
        /^file: the image is 7000 x 7000 pixels with 4 channels of 16 bits, 392 MB once decoded; at most 150 MB .*Save it as 8-bit JPEG/,
      );
      assert.ok(process.memoryUsage.rss() - before < 100e6, 'no decode happened');
    }
    // A camera's 16-bit TIFF export of 24 MP is 144 MB decoded: accepted, and stored as 8-bit JPEG.
    const camera = await processUpload(tiff16(6000, 4000, 3), 'image/tiff');
    assert.deepEqual([camera.width, camera.height, camera.format], [6000, 4000, 'jpeg']);
    assert.equal((await sharp(camera.files.original.bytes).metadata()).depth, 'uchar');
  });
});
