/**
 * How wide a map label is, with no browser to measure it: Helvetica Bold's advance widths (the
 * PDF standard fonts' metrics, in thousandths of an em), which Arial and Liberation Sans share.
 * The map asks for those fonts and pins each label to this width with `textLength`, so the box
 * the placer reserved is the box drawn whichever font a device ends up using.
 */
// biome-ignore format: a table, sixteen characters a row
const ASCII_WIDTHS = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, // 0 to ?
  975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, // @ to O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, // P to _
  333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, // ` to o
  611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, // p to ~
];

const OTHER_WIDTHS: Record<string, number> = {
  ß: 611,
  æ: 889,
  Æ: 1000,
  ø: 611,
  Ø: 778,
  œ: 944,
  Œ: 1000,
  ł: 278,
  Ł: 611,
  đ: 611,
  Đ: 722,
  ı: 278,
  '‘': 278,
  '’': 278,
  '“': 500,
  '”': 500,
  '–': 556,
  '—': 1000,
  '…': 1000,
  '·': 278,
};

/** Ideographs, kana, hangul and full-width forms take a whole em. */
const FULL_WIDTH = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
/** Anything else unknown: as wide as the widest lower-case letters, so a guess errs roomy. */
const UNKNOWN = 611;
/** Combining marks (accents once a letter is decomposed) add nothing. */
const COMBINING = /\p{M}/u;

function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 32 && code <= 126) return ASCII_WIDTHS[code - 32] as number;
  if (COMBINING.test(char)) return 0;
  if (FULL_WIDTH.test(char)) return 1000;
  return OTHER_WIDTHS[char] ?? UNKNOWN;
}

/** The width of `text` set in a bold sans at `fontSize`, in the same units. */
export function textWidth(text: string, fontSize: number): number {
  let thousandths = 0;
  for (const char of text.normalize('NFD')) thousandths += charWidth(char);
  return (thousandths * fontSize) / 1000;
}

/**
 * A long name as two lines, broken at the space that makes the narrower block; null when it has
 * no space.
 */
export function twoLines(text: string): [string, string] | null {
  let best: [string, string] | null = null;
  let bestWidth = Infinity;
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) {
    const lines: [string, string] = [text.slice(0, i).trim(), text.slice(i + 1).trim()];
    if (!lines[0] || !lines[1]) continue;
    const width = Math.max(textWidth(lines[0], 1), textWidth(lines[1], 1));
    if (width < bestWidth) [best, bestWidth] = [lines, width];
  }
  return best;
}
