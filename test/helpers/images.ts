import { crc32, deflateSync } from 'node:zlib';
import sharp, { type Exif, type Sharp } from 'sharp';

/** EXIF a phone writes: capture time with its offset, a GPS fix (46°30'S, 11°45'36"W), the author. */
export const PHONE_EXIF: Exif = {
  IFD0: { Artist: 'Ana Trails', Copyright: '(c) 2024 Ana Trails', Make: 'TestCam', Model: 'T1' },
  IFD2: { DateTimeOriginal: '2024:06:03 00:30:00', OffsetTimeOriginal: '+02:00' },
  IFD3: {
    GPSLatitudeRef: 'S',
    GPSLatitude: '46/1 30/1 0/1',
    GPSLongitudeRef: 'W',
    GPSLongitude: '11/1 45/1 36/1',
  },
};

/** Red above, blue below, so a test can tell which way a photo was turned. */
export function halves(width: number, height: number): Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    pixels[i * 3 + (i < width * Math.floor(height / 2) ? 0 : 2)] = 224;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

export interface PhotoOptions {
  width?: number;
  height?: number;
  orientation?: number;
  exif?: Exif;
  /** Attach an ICC profile (e.g. 'p3') so a test can see it go. */
  icc?: string;
}

/** A JPEG as a phone sends it (red above, blue below as stored): EXIF, orientation and an ICC profile written in. */
export async function phoneJpeg(options: PhotoOptions = {}): Promise<Buffer> {
  const { width = 300, height = 200, orientation = 6, exif = PHONE_EXIF, icc = 'p3' } = options;
  return halves(width, height).jpeg().withIccProfile(icc).withExif(exif).withMetadata({ orientation }).toBuffer();
}

/** A plain image of one colour. */
export function flat(width: number, height: number, background = '#3080c0', channels: 3 | 4 = 3): Sharp {
  return sharp({ create: { width, height, channels, background } });
}

/** Red on the left half, blue on the right, 400 x 200, as a JPEG: a crop at focalX 1 shows only blue. */
export async function redLeftBlueRight(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 200, channels: 3, background: '#0000e0' } })
    .composite([{ input: await flat(200, 200, '#e00000').png().toBuffer(), left: 0, top: 0 }])
    .jpeg()
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of `height` copies of one row (filter byte included), written by hand: zlib on repeated rows. */
function pngOfRows(width: number, height: number, bitDepth: number, colourType: number, row: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([bitDepth, colourType, 0, 0, 0], 8); // deflate, adaptive filters, no interlace
  const rows = Buffer.alloc(height * row.length);
  for (let y = 0; y < height; y++) row.copy(rows, y * row.length);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A decompression bomb: a 1-bit greyscale PNG of width x height, all black. Written by hand (zlib on
 * zero rows), because having sharp encode 400 megapixels takes seconds. 20000 x 20000 is ~50 KB.
 */
export function pngBomb(width = 20_000, height = 20_000): Buffer {
  return pngOfRows(width, height, 1, 0, Buffer.alloc(1 + Math.ceil(width / 8)));
}

/** A 16-bit PNG of one flat grey, RGB or RGBA: 6000 x 4000 RGB is ~150 KB and 144 MB decoded. */
export function png16(width: number, height: number, channels: 3 | 4): Buffer {
  const row = Buffer.alloc(1 + width * channels * 2, 0x80);
  row[0] = 0; // filter: none
  return pngOfRows(width, height, 16, channels === 4 ? 6 : 2, row);
}

/**
 * A 16-bit TIFF of one flat grey, RGB or RGBA, deflate-compressed in one strip as some exports write
 * it (libtiff then holds the whole strip): 7000 x 7000 RGBA is ~760 KB and 392 MB decoded.
 */
export function tiff16(width: number, height: number, channels: 3 | 4): Buffer {
  const strip = deflateSync(Buffer.alloc(width * height * channels * 2, 0x80), { level: 9 });
  const [SHORT, LONG] = [3, 4];
  const tags: Array<[tag: number, type: number, values: number[]]> = [
    [256, LONG, [width]],
    [257, LONG, [height]],
    [258, SHORT, Array(channels).fill(16)], // bits per sample
    [259, SHORT, [8]], // deflate
    [262, SHORT, [2]], // RGB
    [273, LONG, [8]], // the strip starts after the header
    [277, SHORT, [channels]],
    [278, LONG, [height]], // rows per strip: all
    [279, LONG, [strip.length]],
    [284, SHORT, [1]], // chunky
    ...(channels === 4 ? [[338, SHORT, [2]] as [number, number, number[]]] : []), // unassociated alpha
  ];
  const ifdAt = 8 + strip.length + (strip.length % 2);
  const ifd = Buffer.alloc(2 + tags.length * 12 + 4);
  const outside: Buffer[] = [];
  let outsideAt = ifdAt + ifd.length;
  ifd.writeUInt16LE(tags.length, 0);
  tags.forEach(([tag, type, values], i) => {
    const at = 2 + i * 12;
    const size = type === SHORT ? 2 : 4;
    const data = Buffer.alloc(size * values.length);
    values.forEach((v, j) => {
      if (size === 2) data.writeUInt16LE(v, j * 2);
      else data.writeUInt32LE(v, j * 4);
    });
    ifd.writeUInt16LE(tag, at);
    ifd.writeUInt16LE(type, at + 2);
    ifd.writeUInt32LE(values.length, at + 4);
    if (data.length <= 4) data.copy(ifd, at + 8);
    else {
      ifd.writeUInt32LE(outsideAt, at + 8);
      outside.push(data);
      outsideAt += data.length;
    }
  });
  const header = Buffer.from([0x49, 0x49, 0x2a, 0, 0, 0, 0, 0]);
  header.writeUInt32LE(ifdAt, 4);
  return Buffer.concat([header, strip, Buffer.alloc(strip.length % 2), ifd, ...outside]);
}

/** The start of an iPhone HEIC: an `ftyp` box with the `heic` brand, then a box the sniffer never reads. */
export function heicStart(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypheic', 4, 'latin1');
  ftyp.write('mif1heic', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(200, 7)]);
}

/**
 * Every metadata container a file carries, read from its bytes: JPEG APPn segments (by marker and
 * identifier), PNG ancillary text, EXIF and ICC chunks, WebP EXIF/XMP/ICC chunks. Empty means clean.
 */
export function metadataContainers(bytes: Buffer): string[] {
  const found: string[] = [];
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let at = 2; at + 4 <= bytes.length && bytes[at] === 0xff; ) {
      const marker = bytes[at + 1]!;
      if (marker === 0xda) break; // start of scan: no metadata after it
      const length = bytes.readUInt16BE(at + 2);
      // APP0 is JFIF (density only); APP14 is Adobe's colour transform flag: neither says anything of the photo.
      if (marker >= 0xe1 && marker <= 0xef && marker !== 0xee) {
        found.push(`APP${marker - 0xe0}:${bytes.toString('latin1', at + 4, at + 4 + 12).split('\0')[0]}`);
      }
      if (marker === 0xfe) found.push('COM');
      at += 2 + length;
    }
  } else if (bytes.toString('latin1', 1, 4) === 'PNG') {
    for (let at = 8; at + 8 <= bytes.length; at += 12 + bytes.readUInt32BE(at)) {
      const type = bytes.toString('latin1', at + 4, at + 8);
      if (['eXIf', 'iCCP', 'iTXt', 'tEXt', 'zTXt', 'sRGB', 'cHRM', 'gAMA', 'tIME'].includes(type)) found.push(type);
    }
  } else if (bytes.toString('latin1', 8, 12) === 'WEBP') {
    for (let at = 12; at + 8 <= bytes.length; at += 8 + bytes.readUInt32LE(at + 4) + (bytes.readUInt32LE(at + 4) % 2)) {
      const type = bytes.toString('latin1', at, at + 4);
      if (['EXIF', 'XMP ', 'ICCP'].includes(type)) found.push(type);
    }
  } else {
    found.push('unknown format');
  }
  return found;
}
