import { availableParallelism } from 'node:os';
import type { Metadata, Sharp } from 'sharp';
import { ApiError } from '../../core/errors.ts';
import { metered } from '../../core/work-meter.ts';
import { DecodeBudget } from './decode-budget.ts';
import {
  CONTENT_TYPES,
  corruptRefusal,
  heicRefusal,
  identifyUpload,
  type SourceFormat,
  type StoredFormat,
} from './image-formats.ts';
import { type PhotoFacts, readPhotoFacts } from './photo-facts.ts';

type SharpFactory = typeof import('sharp')['default'];
let loading: Promise<SharpFactory> | undefined;

/** sharp, and libvips with it, loaded by the first photo, not by the start: most requests carry none. */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache would keep decoded images of past uploads alive: it buys nothing when
    // every upload is a new image, and ten concurrent 12-megapixel uploads must stay well under 600 MB.
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/**
 * 50 megapixels: more than any photo that fits the 6 MB upload limit holds, and a decode of it
 * (150 MB of RGB) stays affordable. Checked from the header, before any pixel is decoded.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/**
 * What a decode may hold: 150 MB, the full decode of the largest 8-bit RGB photo accepted (50 MP).
 * Counted from the header as pixels x channels x bytes per sample, so a 16-bit photo of 24 MP (a
 * camera's TIFF export, 144 MB) passes, while a 16-bit RGBA image of 7000 x 7000 (392 MB decoded
 * from 400 KB of flat colour) is refused before any pixel is decoded.
 */
export const MAX_DECODED_BYTES = 150_000_000;

/**
 * Photos rendered at once: one per core, and no more than MAX_DECODED_BYTES of decodes in flight
 * (a photo at the limit renders alone); later uploads wait holding only their compressed bytes.
 * Each photo's four encodes already keep both cores busy, and with glibc's allocator every extra
 * photo in flight leaves memory behind (ten 12 MP uploads at once: ~450 MB peak RSS this way,
 * ~570 MB unbounded).
 */
const rendering = new DecodeBudget(MAX_DECODED_BYTES, Math.max(1, availableParallelism()));

/** Bytes per sample of each libvips band format sharp's metadata() names as `depth`. */
const SAMPLE_BYTES: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

/** The bytes a full decode of the image holds, from its header; unknown depths count as 4 bytes. */
export function decodedBytes(meta: Pick<Metadata, 'width' | 'height' | 'channels' | 'depth'>): number {
  return (meta.width ?? 0) * (meta.height ?? 0) * (meta.channels ?? 4) * (SAMPLE_BYTES[meta.depth ?? ''] ?? 4);
}

/** Long edge of each derived size; none is ever larger than the photo itself. */
export const DISPLAY_SIZES = { large: 2048, medium: 1024, small: 400 } as const;

export const THUMBNAIL_4X5 = { width: 800, height: 1000 } as const;

const ORIGINAL_QUALITY = 90;
const DISPLAY_QUALITY = 80;

export type RenditionName = 'original' | keyof typeof DISPLAY_SIZES;

export interface Rendition {
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
}

export interface ProcessedUpload<F = Rendition> extends PhotoFacts {
  /** After the EXIF orientation is applied. */
  width: number;
  height: number;
  /** Size of the stored original. */
  bytes: number;
  /** Format of the stored original. */
  format: StoredFormat;
  /** Format of the uploaded file. */
  sourceFormat: SourceFormat;
  /** Each file as `keep` made it: the rendition itself unless processUpload was given a `keep`. */
  files: Record<RenditionName, F>;
}

/**
 * The original keeps its family where browsers show it (JPEG, PNG, WebP). TIFF and AVIF become JPEG,
 * or WebP when they carry transparency: browsers do not show TIFF, and encoding AVIF costs seconds.
 */
export function originalFormat(source: SourceFormat, hasAlpha: boolean): StoredFormat {
  if (source === 'jpeg' || source === 'png' || source === 'webp') return source;
  return hasAlpha ? 'webp' : 'jpeg';
}

function encode(image: Sharp, format: StoredFormat, quality: number): Sharp {
  // Optimised Huffman tables make libjpeg hold the whole image's coefficients (~90 MB more for 12 MP,
  // twice the CPU) to save 4% of the file: not worth it with ten uploads at once.
  if (format === 'jpeg') return image.jpeg({ quality, optimiseCoding: false });
  if (format === 'png') return image.png();
  return image.webp({ quality, effort: 2 });
}

async function rendition(image: Sharp, format: StoredFormat): Promise<Rendition> {
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  return { bytes: data, contentType: CONTENT_TYPES[format], width: info.width, height: info.height };
}

/**
 * failOn 'warning' (sharp's default, said out loud): a file cut short in transit is refused, not
 * stored with a grey band.
 */
const DECODE_OPTIONS = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' } as const;

async function decoder(bytes: Buffer): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(bytes, DECODE_OPTIONS);
}

/** Every file of a photo, the original first. */
export const RENDITIONS: readonly RenditionName[] = ['original', 'large', 'medium', 'small'];

/**
 * What becomes of each file as soon as it is encoded, while the others are still encoding: an upload
 * writes it to the blob store there, so only the last file's write is left once the encodes end.
 */
export type KeepRendition<F> = (name: RenditionName, rendition: Rendition) => Promise<F>;

const keepAsRendered: KeepRendition<Rendition> = (_name, rendition) => Promise.resolve(rendition);

/**
 * The bare sharp work of an upload: orient, then the original and the three display sizes, with no
 * metadata written (sharp writes none unless asked, and converts to sRGB). The four encodes run
 * concurrently, each a pipeline of its own on the same input bytes; JPEG and WebP decode at a
 * reduced scale for the smaller sizes, so they cost less than one full decode shared through a raw
 * buffer would hold in memory. Not `clone()`: sharp 0.35 copies a clone's options with
 * `structuredClone`, input buffer included, so each clone copied the photo (twice over, on the main
 * thread) before any pixel was decoded; pipelines of their own share the caller's buffer.
 * Each file goes to `keep` as soon as it is encoded. Answers once every encode and every `keep` has
 * ended, also when one failed (then with the first failure): none is left decoding outside the
 * decode budget, and none is handed over after the caller has given up.
 */
export async function renderRenditions<F = Rendition>(
  bytes: Buffer,
  format: StoredFormat,
  keep: KeepRendition<F> = keepAsRendered as KeepRendition<F>,
): Promise<Record<RenditionName, F>> {
  const sharp = await loadSharp();
  const oriented = () => sharp(bytes, DECODE_OPTIONS).autoOrient();
  const display = (edge: number) =>
    encode(
      oriented().resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true }),
      'webp',
      DISPLAY_QUALITY,
    );
  const pipelines: Record<RenditionName, [Sharp, StoredFormat]> = {
    original: [encode(oriented(), format, ORIGINAL_QUALITY), format],
    large: [display(DISPLAY_SIZES.large), 'webp'],
    medium: [display(DISPLAY_SIZES.medium), 'webp'],
    small: [display(DISPLAY_SIZES.small), 'webp'],
  };
  const settled = await Promise.allSettled(
    RENDITIONS.map(async (name) => keep(name, await rendition(...pipelines[name]))),
  );
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return Object.fromEntries(
    RENDITIONS.map((name, i) => [name, (settled[i] as PromiseFulfilledResult<F>).value]),
  ) as Record<RenditionName, F>;
}

function pixelRefusal(width: number, height: number): ApiError {
  const megapixels = Math.round((width * height) / 1e6);
  return new ApiError(
    'invalid_request',
    `file: the image is ${width} x ${height} pixels (${megapixels} megapixels); at most ` +
      `${MAX_INPUT_PIXELS / 1e6} megapixels are accepted. Scale it down and send it again.`,
    { details: { path: 'file' } },
  );
}

function decodedRefusal(meta: Metadata): ApiError {
  const bits = (SAMPLE_BYTES[meta.depth ?? ''] ?? 4) * 8;
  return new ApiError(
    'invalid_request',
    `file: the image is ${meta.width} x ${meta.height} pixels with ${meta.channels} channels of ${bits} bits, ` +
      `${Math.round(decodedBytes(meta) / 1e6)} MB once decoded; at most ${MAX_DECODED_BYTES / 1e6} MB are ` +
      'accepted (a 50-megapixel 8-bit photo, or a 24-megapixel 16-bit one without transparency). Save it as ' +
      '8-bit JPEG, or scale it down, and send it again.',
    { details: { path: 'file' } },
  );
}

/** Reads the header only: size, codec, EXIF. Nothing is decoded yet. */
async function header(bytes: Buffer, format: string): Promise<Metadata> {
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw corruptRefusal(format.toUpperCase());
  }
}

/**
 * Checks, reads and re-encodes one uploaded photo: refuses what is not an accepted image (with what
 * is accepted), reads capture date, GPS fix and credit from EXIF before anything is stripped, applies
 * the orientation and answers every file to store, all without metadata. `keep` gets each file as
 * soon as it is encoded (see renderRenditions); a failure of its own is answered as it is, never
 * taken for a refusal of the photo.
 */
export function processUpload<F = Rendition>(
  bytes: Buffer,
  declaredContentType: string | undefined,
  keep: KeepRendition<F> = keepAsRendered as KeepRendition<F>,
): Promise<ProcessedUpload<F>> {
  return metered(
    () => processPhoto(bytes, declaredContentType, keep),
    (sink) => sink.uploadStarted(bytes.length),
    (sink, seconds, { error }) =>
      sink.uploadEnded(error === undefined ? 'processed' : error instanceof ApiError ? 'refused' : 'failed', seconds),
  );
}

/** A failure of `keep`, told apart from the decoder's: the photo was fine, its file was not kept. */
class KeepFailure {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

async function processPhoto<F>(
  bytes: Buffer,
  declaredContentType: string | undefined,
  keep: KeepRendition<F>,
): Promise<ProcessedUpload<F>> {
  const identified = identifyUpload(bytes, declaredContentType);
  const meta = await header(bytes, identified);
  let source: SourceFormat;
  if (meta.format === 'heif') {
    if (meta.compression !== 'av1') throw heicRefusal();
    source = 'avif';
  } else {
    source = meta.format as SourceFormat;
  }
  if (source !== identified && identified !== 'heif') throw corruptRefusal(identified.toUpperCase());
  if (!meta.width || !meta.height) throw corruptRefusal(identified.toUpperCase());
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw pixelRefusal(meta.width, meta.height);
  if (decodedBytes(meta) > MAX_DECODED_BYTES) throw decodedRefusal(meta);

  const format = originalFormat(source, meta.hasAlpha === true);
  let original: Rendition | undefined;
  // The original's size is answered whatever `keep` makes of it.
  const keepEach: KeepRendition<F> = (name, rendition) => {
    if (name === 'original') original = rendition;
    return keep(name, rendition).catch((err: unknown) => {
      throw new KeepFailure(err);
    });
  };
  // Both settle before the answer, a refusal too: the caller may reuse `bytes` once it has one.
  const [rendered, read] = await Promise.allSettled([
    rendering
      .run(decodedBytes(meta), () => renderRenditions(bytes, format, keepEach))
      .catch((err: unknown) => {
        if (err instanceof KeepFailure) throw err.cause;
        throw err instanceof Error && /pixel limit/i.test(err.message)
          ? pixelRefusal(meta.width!, meta.height!)
          : corruptRefusal(source.toUpperCase());
      }),
    // libvips hands over no EXIF block for TIFF, whose tags live in the file's own IFDs: exifr reads those.
    readPhotoFacts(meta.exif ?? (source === 'tiff' ? bytes : undefined)),
  ]);
  if (rendered.status === 'rejected') throw rendered.reason;
  if (read.status === 'rejected') throw read.reason;
  const [files, facts] = [rendered.value, read.value];
  // Set by then: renderRenditions answers only once every file was encoded and kept.
  const { width, height, bytes: encoded } = original as Rendition;
  return {
    width,
    height,
    bytes: encoded.length,
    format,
    sourceFormat: source,
    files,
    ...facts,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Where a crop of `size` centred on `focal` (0 to 1 of `full`) starts, kept inside the image. */
function cropStart(full: number, size: number, focal: number | null): number {
  const centre = (focal === null || !Number.isFinite(focal) ? 0.5 : clamp(focal, 0, 1)) * full;
  return clamp(Math.round(centre - size / 2), 0, full - size);
}

/** The thumbnail is cut from the large display size: at most 2048 x 2048 with transparency. */
const LARGE_DECODED_BYTES = DISPLAY_SIZES.large * DISPLAY_SIZES.large * 4;

/**
 * The 4:5 store thumbnail: the largest 4:5 crop of the photo around its focal point (centre when
 * unset), scaled down to 800 x 1000, never up: a smaller photo gives a smaller 4:5 thumbnail.
 */
export function thumbnail4x5(original: Buffer, focalX: number | null, focalY: number | null): Promise<Rendition> {
  return rendering.run(LARGE_DECODED_BYTES, () => renderThumbnail(original, focalX, focalY));
}

async function renderThumbnail(original: Buffer, focalX: number | null, focalY: number | null): Promise<Rendition> {
  const image = (await decoder(original)).autoOrient();
  const { width, height } = (await image.metadata()).autoOrient;
  const cropWidth = Math.max(1, Math.min(width, Math.round((height * 4) / 5)));
  const cropHeight = Math.max(1, Math.min(height, Math.round((cropWidth * 5) / 4)));
  const cropped = image
    .extract({
      left: cropStart(width, cropWidth, focalX),
      top: cropStart(height, cropHeight, focalY),
      width: cropWidth,
      height: cropHeight,
    })
    .resize({ ...THUMBNAIL_4X5, fit: 'cover', withoutEnlargement: true });
  return rendition(encode(cropped, 'webp', DISPLAY_QUALITY), 'webp');
}
