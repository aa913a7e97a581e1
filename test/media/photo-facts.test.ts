import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp, { type Exif } from 'sharp';
import { readPhotoFacts } from '../../src/resources/media/photo-facts.ts';
import { flat } from '../helpers/images.ts';

/** The EXIF block sharp reads from a JPEG carrying `exif`, as processUpload hands it over. */
async function exifBlock(exif: Exif): Promise<Buffer | undefined> {
  const jpeg = await flat(8, 8).jpeg().withExif(exif).toBuffer();
  return (await sharp(jpeg).metadata()).exif;
}

describe('readPhotoFacts', () => {
  it('takes the local date of DateTimeOriginal; without an offset, capturedAt has no zone', async () => {
    const facts = await readPhotoFacts(await exifBlock({ IFD2: { DateTimeOriginal: '2023:12:31 23:59:59' } }));
    assert.deepEqual(facts, { capturedOn: '2023-12-31', capturedAt: '2023-12-31T23:59:59' });
  });

  it('falls back to CreateDate when DateTimeOriginal is missing or zeros (a camera with no clock set)', async () => {
    const zeros = await exifBlock({
      IFD2: {
        DateTimeOriginal: '0000:00:00 00:00:00',
        DateTimeDigitized: '2022:02:28 08:00:00',
        OffsetTimeDigitized: '-05:00',
      },
    });
    assert.deepEqual(await readPhotoFacts(zeros), {
      capturedOn: '2022-02-28',
      capturedAt: '2022-02-28T08:00:00-05:00',
    });
    assert.deepEqual(await readPhotoFacts(await exifBlock({ IFD2: { DateTimeOriginal: '2023:02:30 10:00:00' } })), {});
  });

  it('ignores a GPS fix of exactly 0,0 (no fix) and keeps one on the equator', async () => {
    const nullIsland = await exifBlock({
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '0/1 0/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '0/1 0/1 0/1' },
    });
    assert.equal((await readPhotoFacts(nullIsland)).takenAt, undefined);
    const quito = await exifBlock({
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '0/1 0/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '78/1 30/1 0/1' },
    });
    assert.deepEqual((await readPhotoFacts(quito)).takenAt, { lat: 0, lon: -78.5, precision: 'gps' });
  });

  it('suggests the Artist, else the Copyright, trimmed; padding alone is no credit', async () => {
    const both = await exifBlock({ IFD0: { Artist: '  Ana   Trails  ', Copyright: '(c) Someone' } });
    assert.equal((await readPhotoFacts(both)).suggestedCredit, 'Ana Trails');
    const copyright = await exifBlock({ IFD0: { Artist: '        ', Copyright: 'Copyright 2024 Ana Trails' } });
    assert.equal((await readPhotoFacts(copyright)).suggestedCredit, 'Copyright 2024 Ana Trails');
  });

  it('answers no facts for no block or a damaged one, rather than refusing the photo', async () => {
    assert.deepEqual(await readPhotoFacts(undefined), {});
    assert.deepEqual(await readPhotoFacts(Buffer.from('Exif\0\0II*\0\xff\xff\xff\xff garbage', 'latin1')), {});
    const block = (await exifBlock({ IFD0: { Artist: 'Ana' } }))!;
    assert.deepEqual(await readPhotoFacts(block.subarray(0, 20)), {});
  });
});
