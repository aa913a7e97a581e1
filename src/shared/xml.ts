import { parseXml, type XmlElement, XmlError } from '@rgrove/parse-xml';
import { refuse } from '../core/errors.ts';

/**
 * Reading the XML files creators bring (GPX for a hike's track, KML and GPX for an import): one
 * parser, one set of guards. See docs/decisions/hikes.md (GPX reading) and files.md (Readers).
 */

/**
 * The deepest element nesting read. A KML of folders in folders or a GPX with Garmin extensions
 * is under 15; past this a file is not a map but an attack on whatever walks it.
 */
export const XML_DEPTH_MAX = 64;

// A decimal number as GPX and KML write it (xsd:decimal, with an exponent tolerated); `Number()`
// alone would also take "", "0x1F" and "Infinity". The fraction needs its dot, so no two parts can
// share a run of digits: "1111…1x" fails in one pass, where /\d+\.?\d*/ backtracks quadratically.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A number as a map file writes it, or undefined when the text is not one. */
export function xmlDecimal(raw: string | undefined): number | undefined {
  const value = raw?.trim();
  return value !== undefined && DECIMAL.test(value) ? Number(value) : undefined;
}

/** An element's local name: GPX and KML are namespaced, and some writers use a prefix (`gpx:trkpt`, `gx:Track`). */
export function localName(element: XmlElement): string {
  return element.name.slice(element.name.indexOf(':') + 1);
}

/** The child elements, or those of one local name. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter(
    (c): c is XmlElement => c.type === 'element' && (name === undefined || localName(c as XmlElement) === name),
  );
}

/** The trimmed text of the first child of that name; undefined when it is absent or blank. */
export function childText(element: XmlElement, name: string): string | undefined {
  const child = childElements(element, name)[0];
  const text = child?.text.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** Throws when an element lies deeper than XML_DEPTH_MAX; walks with its own stack, never recursing. */
function checkDepth(root: XmlElement, path: string): void {
  const stack: [XmlElement, number][] = [[root, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [element, depth] = next;
    if (depth > XML_DEPTH_MAX) {
      throw refuse(path, `nests elements more than ${XML_DEPTH_MAX} deep (<${element.name}>); no map file needs that.`);
    }
    for (const child of childElements(element)) stack.push([child, depth + 1]);
  }
}

/**
 * The root element of an XML text. Malformed XML is refused with line and column; custom entities
 * (a DTD's, as in "billion laughs") are never expanded, a reference to one is an error, and
 * external DTDs are never loaded. The parser descends by recursion: nesting deep enough to exhaust
 * the stack is refused like any nesting past XML_DEPTH_MAX, never answered as a crash.
 */
export function readXml(text: string, path: string): XmlElement | null {
  let root: XmlElement | null;
  try {
    root = parseXml(text).root;
  } catch (err) {
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      throw refuse(path, `nests elements more than ${XML_DEPTH_MAX} deep; no map file needs that.`);
    }
    if (!(err instanceof XmlError)) throw err;
    const reason = err.message.split('\n')[0]!.replace(/ \(line \d+, column \d+\)$/, '');
    const entities = /entity/i.test(reason) ? ' (entities a DTD declares are never expanded, nor fetched)' : '';
    throw refuse(path, `is not well-formed XML at line ${err.line}, column ${err.column}: ${reason}${entities}.`);
  }
  if (root !== null) checkDepth(root, path);
  return root;
}
