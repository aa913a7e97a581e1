import { isCalendarDate } from '../../shared/dates.ts';

/** What a photo's EXIF tells before it is stripped. Every field is absent when the file does not say. */
export interface PhotoFacts {
  /** The photographer's local calendar date, YYYY-MM-DD. */
  capturedOn?: string;
  /** Local date and time, ISO 8601, with the offset when the camera wrote one (`2024-06-03T23:30:00+02:00`). */
  capturedAt?: string;
  takenAt?: { lat: number; lon: number; precision: 'gps' };
  /** EXIF Artist, else Copyright: for the API to suggest, never stored as the credit. */
  suggestedCredit?: string;
}

const PICK = [
  'DateTimeOriginal',
  'OffsetTimeOriginal',
  'CreateDate',
  'OffsetTimeDigitized',
  'Artist',
  'Copyright',
  'GPSLatitude',
  'GPSLatitudeRef',
  'GPSLongitude',
  'GPSLongitudeRef',
];

const CREDIT_MAX = 200;

/**
 * `YYYY:MM:DD HH:MM:SS` is camera-local time with no zone. Read as text, never through `Date`,
 * which would put it in this process's time zone and can move the day.
 */
function capture(stamp: unknown, offset: unknown): Pick<PhotoFacts, 'capturedOn' | 'capturedAt'> {
  if (typeof stamp !== 'string') return {};
  const m = /^(\d{4})[:\-/](\d{2})[:\-/](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(stamp.trim());
  if (!m) return {};
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  // Cameras with an unset clock write zeros; a year before photography is no date either.
  if (!isCalendarDate(day) || Number(m[1]) < 1826) return {};
  if (m[4] === undefined || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) {
    return { capturedOn: day };
  }
  const zone = typeof offset === 'string' && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : '';
  return { capturedOn: day, capturedAt: `${day}T${m[4]}:${m[5]}:${m[6] ?? '00'}${zone}` };
}

function gpsFix(lat: unknown, lon: unknown): PhotoFacts['takenAt'] {
  if (typeof lat !== 'number' || typeof lon !== 'number') return undefined;
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  // Exactly 0,0 is what receivers without a fix write, not a place anyone photographed.
  if (lat === 0 && lon === 0) return undefined;
  return { lat: Math.round(lat * 1e7) / 1e7, lon: Math.round(lon * 1e7) / 1e7, precision: 'gps' };
}

/** EXIF text is often padded with NULs or spaces; some cameras write only padding. */
function cleanText(value: unknown): string | undefined {
  const text = Array.isArray(value) ? value.join('; ') : value;
  if (typeof text !== 'string') return undefined;
  const clean = text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean === '' ? undefined : clean.slice(0, CREDIT_MAX);
}

/** The EXIF block as sharp hands it over starts with `Exif\0\0`; exifr wants the TIFF structure after it. */
function tiffOf(exif: Buffer): Buffer {
  return exif.toString('latin1', 0, 6) === 'Exif\0\0' ? exif.subarray(6) : exif;
}

/**
 * Reads the facts from a raw EXIF block (or a whole TIFF file, whose tags are its own). A damaged
 * block yields no facts rather than refusing the photo.
 */
export async function readPhotoFacts(exif: Buffer | undefined): Promise<PhotoFacts> {
  if (!exif || exif.length < 8) return {};
  // Loaded by the first photo with EXIF, not by the start.
  const { default: exifr } = await import('exifr');
  let tags: Record<string, unknown> | undefined;
  try {
    tags = await exifr.parse(tiffOf(exif), { pick: PICK, reviveValues: false, translateValues: false });
  } catch {
    return {};
  }
  if (!tags) return {};
  const original = capture(tags.DateTimeOriginal, tags.OffsetTimeOriginal);
  const facts: PhotoFacts = original.capturedOn ? original : capture(tags.CreateDate, tags.OffsetTimeDigitized);
  const takenAt = gpsFix(tags.latitude, tags.longitude);
  if (takenAt) facts.takenAt = takenAt;
  const credit = cleanText(tags.Artist) ?? cleanText(tags.Copyright);
  if (credit) facts.suggestedCredit = credit;
  return facts;
}
