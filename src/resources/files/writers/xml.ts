/**
 * The little XML the KML and GPX writers need, written safely: every text and attribute value is
 * escaped, and characters XML 1.0 cannot hold at all (control characters, lone surrogates) are
 * dropped rather than written into a file no reader would open.
 */

/** Characters outside XML 1.0's Char production. */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters removed
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** An element's children: strings are already XML; undefined and false are left out. */
export type XmlChild = string | undefined | false;

/** `<name a="…">children</name>`, or `<name/>` when empty; attributes without a value are left out. */
export function element(name: string, attributes: Record<string, string | undefined>, ...children: XmlChild[]): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
    .join('');
  const inner = children.filter((c): c is string => typeof c === 'string').join('');
  return inner === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`;
}

/** An element holding text, escaped; nothing when there is no text. */
export function textElement(name: string, text: string | null | undefined): string | undefined {
  return text === null || text === undefined || text === '' ? undefined : `<${name}>${escapeXml(text)}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * A coordinate as text with at most 7 decimals (about a centimetre) and never an exponent, which
 * some readers of KML and GPX do not take (`String(1e-7)` is "1e-7").
 */
export function decimal(n: number, decimals = 7): string {
  const fixed = n.toFixed(decimals);
  const trimmed = fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}
