import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * A KML description as a guide keeps it: plain text, and the "key: value" facts map makers put in
 * it as properties. Google My Maps writes a layer's columns as "Category: Bakery<br>" lines (and a
 * "description: …" line for its description column); ArcGIS and older tools write a two-column
 * HTML table. Everything else is the description, its markup dropped.
 *
 * The HTML is read by htmlparser2's Tokenizer alone: it is one pass over the text whatever the
 * markup. Its Parser, which keeps the open tags, is not used: it shifts an array per open tag, so
 * 600,000 unclosed <b> cost minutes (measured: docs/decisions/files.md, Readers).
 */

export interface ReadDescription {
  text: string | undefined;
  properties: Record<string, string>;
}

/** A key longer than this is a sentence with a colon in it, not a column name. */
const KEY_MAX = 40;

/** Tags that end a line of text, opening or closing. */
const LINE_BREAKS = new Set([
  'br',
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'tr',
  'table',
  'hr',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
/** Tags whose content is not text a reader sees. */
const UNSEEN = new Set(['script', 'style', 'head', 'title', 'template', 'noscript']);

/** One line of text or one row of a table, in the order the description has them. */
type Part = { line: string } | { cells: string[] };

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The visible text of an HTML fragment, as lines and table rows. */
function htmlParts(html: string): Part[] {
  const parts: Part[] = [];
  let line = '';
  let cell: string | undefined;
  let row: string[] | undefined;
  let unseen: string | undefined;
  const emit = (text: string) => {
    if (unseen !== undefined) return;
    if (cell !== undefined) cell += text;
    else line += text;
  };
  const endLine = () => {
    const text = squash(line);
    if (text !== '') parts.push({ line: text });
    line = '';
  };
  const endCell = () => {
    // A cell outside any row (sloppy markup) is text like any other.
    if (cell !== undefined && row !== undefined) row.push(squash(cell));
    else if (cell !== undefined) line += ` ${cell} `;
    cell = undefined;
  };
  const endRow = () => {
    endCell();
    if (row?.some((c) => c !== '')) parts.push({ cells: row });
    row = undefined;
  };
  const tag = (start: number, end: number, opening: boolean) => {
    const name = html.slice(start, end).toLowerCase();
    if (opening && unseen === undefined && UNSEEN.has(name)) unseen = name;
    else if (!opening && unseen === name) unseen = undefined;
    if (name === 'td' || name === 'th') {
      endCell();
      if (opening) cell = '';
    } else if (name === 'tr') {
      endRow();
      if (opening) {
        endLine();
        row = [];
      }
    } else if (LINE_BREAKS.has(name)) {
      if (cell !== undefined) cell += ' ';
      else endLine();
    }
  };
  const ignore = () => {};
  const callbacks: TokenizerCallbacks = {
    ontext: (start, end) => emit(html.slice(start, end)),
    ontextentity: (codepoint) => emit(String.fromCodePoint(codepoint)),
    onopentagname: (start, end) => tag(start, end, true),
    onclosetag: (start, end) => tag(start, end, false),
    onattribdata: ignore,
    onattribentity: ignore,
    onattribend: ignore,
    onattribname: ignore,
    oncdata: (start, end) => emit(html.slice(start, end)),
    oncomment: ignore,
    ondeclaration: ignore,
    onend: ignore,
    onopentagend: ignore,
    onprocessinginstruction: ignore,
    onselfclosingtag: ignore,
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  endRow();
  endLine();
  return parts;
}

/** "Category: Bakery" as a key and a value; a time ("10:30") or an address ("https://…") is not one. */
function keyValue(line: string): [string, string] | undefined {
  const at = line.indexOf(':');
  if (at < 1 || at > KEY_MAX || line[at + 1] !== ' ') return undefined;
  const value = line.slice(at + 2).trim();
  return value === '' ? undefined : [line.slice(0, at).trim(), value];
}

/**
 * Reads a description. Text without markup is kept as written; HTML becomes its visible text, a
 * line per <br> or block, with "key: value" lines and two-cell table rows taken out as properties
 * (the first of a key wins) and a "description: …" line kept as text.
 */
export function readDescription(raw: string | undefined): ReadDescription {
  if (raw === undefined || !raw.includes('<')) return { text: raw, properties: {} };
  const lines: string[] = [];
  // A Map, not an object: a key is the file's word, "__proto__" included.
  const facts = new Map<string, string>();
  const fact = (key: string, value: string) => {
    if (key.toLowerCase() === 'description') lines.push(value);
    else if (!facts.has(key)) facts.set(key, value);
  };
  for (const part of htmlParts(raw)) {
    if ('cells' in part) {
      const [key = '', value = ''] = part.cells;
      if (part.cells.length === 2 && key !== '' && key.length <= KEY_MAX) fact(key.replace(/:$/, ''), value);
      else lines.push(part.cells.filter((c) => c !== '').join(' | '));
      continue;
    }
    const pair = keyValue(part.line);
    if (pair === undefined) lines.push(part.line);
    else fact(...pair);
  }
  return { text: lines.length === 0 ? undefined : lines.join('\n'), properties: Object.fromEntries(facts) };
}
