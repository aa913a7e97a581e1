import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { THUMBNAIL_4X5, thumbnail4x5 } from '../../src/resources/media/image-pipeline.ts';
import { flat, metadataContainers, phoneJpeg } from '../helpers/images.ts';

/** A landscape photo, red on its left half and blue on its right. */
async function leftRed(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) pixels[i * 3 + (i % width < width / 2 ? 0 : 2)] = 224;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function mean(bytes: Buffer): Promise<number[]> {
  return (await sharp(bytes).stats()).channels.slice(0, 3).map((c) => Math.round(c.mean));
}

describe('thumbnail4x5', () => {
  it('crops a landscape photo to 4:5 and scales it to 800x1000, as WebP without metadata', async () => {
    const thumb = await thumbnail4x5(await flat(3000, 2000).jpeg().toBuffer(), null, null);
    assert.deepEqual([thumb.width, thumb.height], [THUMBNAIL_4X5.width, THUMBNAIL_4X5.height]);
    assert.equal(thumb.contentType, 'image/webp');
    const meta = await sharp(thumb.bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 800, 1000]);
    assert.deepEqual(metadataContainers(thumb.bytes), []);
  });

  it('crops around the focal point, clamped inside the photo', async () => {
    const photo = await leftRed(2500, 1000); // the 4:5 crop is 800 wide: a fifth of the width, less
    const [leftR, , leftB] = await mean((await thumbnail4x5(photo, 0, 0.5)).bytes);
    assert.ok(leftR! > 200 && leftB! < 20, `focal 0: red, got ${leftR},${leftB}`);
    const [rightR, , rightB] = await mean((await thumbnail4x5(photo, 1, 0.5)).bytes);
    assert.ok(rightB! > 200 && rightR! < 20, `focal 1: blue, got ${rightR},${rightB}`);
    const [midR, , midB] = await mean((await thumbnail4x5(photo, null, null)).bytes);
    assert.ok(Math.abs(midR! - midB!) < 30, `centre: half and half, got ${midR},${midB}`);
  });

  it('never scales up: a small photo gives a smaller 4:5 thumbnail', async () => {
    const landscape = await thumbnail4x5(await flat(300, 200).png().toBuffer(), 0.5, 0.5);
    assert.deepEqual([landscape.width, landscape.height], [160, 200]);
    const portrait = await thumbnail4x5(await flat(200, 600).png().toBuffer(), 0.5, 0.1);
    assert.deepEqual([portrait.width, portrait.height], [200, 250]);
  });

  it('turns a photo that still carries an orientation before cropping', async () => {
    // 300x200 stored, 200x300 shown: the 4:5 crop of the shown photo is 200x250.
    const thumb = await thumbnail4x5(await phoneJpeg(), null, null);
    assert.deepEqual([thumb.width, thumb.height], [200, 250]);
  });
});
