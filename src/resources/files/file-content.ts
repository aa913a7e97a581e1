import { refuse } from '../../core/errors.ts';

/** A zip archive's first bytes (local file header): a KMZ, whatever its name says. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An uploaded file as text: UTF-8, strictly. A file saved in two encodings (a Latin-1 é among UTF-8
 * text) is refused rather than read with replacement characters, which would change its names.
 * The byte order mark, if any, is left for the reader (CSV takes it off).
 */
export function uploadedText(bytes: Uint8Array, field: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw refuse(
      field,
      'is not valid UTF-8 text: part of it is in another encoding (Latin-1, Windows-1252…). Save the file as ' +
        'UTF-8 and upload it again.',
    );
  }
}

/**
 * Text sent as `content`: JSON carries it already decoded, so a file read in the wrong encoding
 * shows as U+FFFD replacement characters. Refused, as an upload in two encodings is.
 */
export function sentText(content: string): string {
  const at = content.indexOf('\uFFFD');
  if (at >= 0) {
    throw refuse(
      'content',
      `holds a replacement character (U+FFFD) at character ${at + 1}: the file was read in the wrong encoding ` +
        'somewhere on its way. Read it as UTF-8 and send it again, or upload the file itself.',
    );
  }
  return content;
}
