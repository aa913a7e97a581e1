import { ApiError } from '../../core/errors.ts';
import { ownValue } from '../../core/own.ts';

/** What an upload's first bytes say it is; `heif` is a HEIF container whose brands name neither codec. */
export type SniffedFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif' | 'heic' | 'heif' | 'gif';

/** The formats we decode; HEIC (HEVC) is not among them: the prebuilt sharp has no HEVC decoder. */
export type SourceFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';

export const ACCEPTED_PHOTOS =
  'Accepted photos: JPEG, PNG, WebP, AVIF (HEIF with AV1) and TIFF, as image/jpeg, image/png, image/webp, ' +
  'image/avif, image/heif or image/tiff, or as application/octet-stream to let the server tell.';

const HEIC_REFUSAL =
  'HEIC photos (HEIF with HEVC, the iPhone default) cannot be read here. Send the photo as JPEG instead ' +
  '(on an iPhone: Settings > Camera > Formats > Most Compatible, or share it as JPEG). ';

/** Declared types that say nothing about the bytes: the bytes decide. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/** Declared content type to the family its bytes must belong to (AVIF and HEIC are both HEIF). */
const DECLARED_FAMILY: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/avif': 'heif',
  'image/heif': 'heif',
  'image/heic': 'heif',
};

function family(format: SniffedFormat): string {
  return format === 'avif' || format === 'heic' ? 'heif' : format;
}

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);

function startsWith(bytes: Buffer, signature: number[], at = 0): boolean {
  return bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
}

/** The brands of an ISO-BMFF `ftyp` box at the start (major first), or undefined. */
function ftypBrands(bytes: Buffer): string[] | undefined {
  if (bytes.length < 16 || bytes.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const end = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
  const brands = [bytes.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(bytes.toString('latin1', at, at + 4));
  return brands;
}

/** Tells the format from the magic bytes alone, so no decoder sees what we do not accept (SVG, PDF…). */
export function sniffFormat(bytes: Buffer): SniffedFormat | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  const head = bytes.toString('latin1', 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  const brands = ftypBrands(bytes);
  if (!brands) return undefined;
  const [major] = brands;
  if (major && AVIF_BRANDS.has(major)) return 'avif';
  if (major && HEIC_BRANDS.has(major)) return 'heic';
  if (brands.some((b) => AVIF_BRANDS.has(b))) return 'avif';
  if (brands.some((b) => HEIC_BRANDS.has(b))) return 'heic';
  if (brands.includes('mif1') || brands.includes('msf1')) return 'heif';
  return undefined;
}

function refuseUpload(sentence: string): ApiError {
  return new ApiError('invalid_request', `file: ${sentence}`, { details: { path: 'file' } });
}

export function heicRefusal(): ApiError {
  return refuseUpload(`${HEIC_REFUSAL}${ACCEPTED_PHOTOS}`);
}

export function corruptRefusal(format: string): ApiError {
  return refuseUpload(
    `the file starts like ${format} but could not be read (damaged or cut short). ${ACCEPTED_PHOTOS}`,
  );
}

/** The media type without parameters, lower case: `Image/JPEG; q=1` is `image/jpeg`. */
function bareType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Checks the declared content type against the bytes and answers the format to decode. A generic or
 * missing type lets the bytes decide; `heif` still needs the decoder's word on its codec.
 */
export function identifyUpload(bytes: Buffer, declaredContentType: string | undefined): SourceFormat | 'heif' {
  const declared = bareType(declaredContentType);
  const declaredFamily = ownValue(DECLARED_FAMILY, declared);
  if (!GENERIC_TYPES.has(declared) && declaredFamily === undefined) {
    throw refuseUpload(`content type ${JSON.stringify(declared)} is not a photo type we accept. ${ACCEPTED_PHOTOS}`);
  }
  const sniffed = sniffFormat(bytes);
  if (sniffed === undefined) {
    throw refuseUpload(`the bytes are not an image in a format we accept. ${ACCEPTED_PHOTOS}`);
  }
  if (sniffed === 'heic') throw heicRefusal();
  if (sniffed === 'gif') {
    throw refuseUpload(`GIF is not accepted: its 256 colours do not hold a photo. ${ACCEPTED_PHOTOS}`);
  }
  if (declaredFamily !== undefined && declaredFamily !== family(sniffed)) {
    throw refuseUpload(
      `the bytes are ${sniffed.toUpperCase()} but the content type says ${declared}. Send the file's own type, ` +
        `or application/octet-stream. ${ACCEPTED_PHOTOS}`,
    );
  }
  return sniffed;
}

export const CONTENT_TYPES = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
} as const;

export type StoredFormat = keyof typeof CONTENT_TYPES;
