import Papa from 'papaparse';
import { type FileReader, IMPORT_FEATURES_MAX, type ImportedValue } from '../imported-file.ts';
import { checkPosition, namedFields } from './feature-fields.ts';
import { FeatureList, refuseContent } from './feature-list.ts';

const LAT_COLUMNS = ['lat', 'latitude'];
const LON_COLUMNS = ['lon', 'lng', 'long', 'longitude'];
/** One column holding the whole position: WKT `POINT (lon lat)` or "lat, lon" as map apps copy it. */
const POSITION_COLUMNS = [
  'wkt',
  'geometry',
  'geom',
  'the_geom',
  'point',
  'coordinates',
  'coords',
  'location',
  'position',
];

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const WKT_POINT = /^POINT\s*Z?\s*\(\s*(\S+)\s+(\S+)(?:\s+\S+)?\s*\)$/i;
const LAT_LON = /^\s*([^,\s]+)\s*,\s*([^,\s]+)\s*$/;

interface Columns {
  lat?: string;
  lon?: string;
  position?: string;
}

function findColumn(header: readonly string[], wanted: readonly string[]): string | undefined {
  for (const want of wanted) {
    const found = header.find((h) => h.trim().toLowerCase() === want);
    if (found !== undefined) return found;
  }
  return undefined;
}

function positionColumns(header: readonly string[]): Columns {
  const lat = findColumn(header, LAT_COLUMNS);
  const lon = findColumn(header, LON_COLUMNS);
  if (lat !== undefined && lon !== undefined) return { lat, lon };
  const position = findColumn(header, POSITION_COLUMNS);
  if (position !== undefined) return { position };
  throw refuseContent(
    `the header row names no position: give columns lat and lon (or latitude and longitude), or one column ` +
      `(${POSITION_COLUMNS.slice(0, 3).join(', ')}…) holding WKT POINT (lon lat) or "lat, lon". Header: ${header.join(' | ')}.`,
  );
}

/**
 * A coordinate as a spreadsheet writes it. Where the delimiter is not a comma, a decimal comma
 * (45,83 in a European locale) is read as the decimal point it stands for.
 */
function coordinate(raw: string, what: string, where: string, decimalComma: boolean): number {
  const text = decimalComma ? raw.trim().replace(/^([+-]?\d+),(\d+)$/, '$1.$2') : raw.trim();
  if (!DECIMAL.test(text)) throw refuseContent(`${where}: ${what} ${JSON.stringify(raw)} is not a number.`);
  return Number(text);
}

/** The row's position, undefined when its cells are empty (skipped later as having none). */
function rowPosition(
  row: Record<string, string>,
  columns: Columns,
  where: string,
  decimalComma: boolean,
): { lon: number; lat: number } | undefined {
  let lat: number;
  let lon: number;
  if (columns.position !== undefined) {
    const cell = (row[columns.position] ?? '').trim();
    if (cell === '') return undefined;
    const wkt = WKT_POINT.exec(cell);
    const pair = wkt ? undefined : LAT_LON.exec(cell);
    if (wkt) {
      lon = coordinate(wkt[1] as string, 'longitude', where, false);
      lat = coordinate(wkt[2] as string, 'latitude', where, false);
    } else if (pair) {
      lat = coordinate(pair[1] as string, 'latitude', where, false);
      lon = coordinate(pair[2] as string, 'longitude', where, false);
    } else {
      throw refuseContent(`${where}: ${JSON.stringify(cell)} is neither WKT POINT (lon lat) nor "lat, lon".`);
    }
  } else {
    const latCell = (row[columns.lat as string] ?? '').trim();
    const lonCell = (row[columns.lon as string] ?? '').trim();
    if (latCell === '' && lonCell === '') return undefined;
    lat = coordinate(latCell, 'latitude', where, decimalComma);
    lon = coordinate(lonCell, 'longitude', where, decimalComma);
  }
  checkPosition(lon, lat, where);
  return { lon, lat };
}

/**
 * CSV as spreadsheets save it: a header row naming the columns, any delimiter (guessed), UTF-8
 * with or without a byte order mark. Each row is a place: the name column (name or title), the
 * position (lat/lon columns or one position column), description, id and folder columns when present, and
 * every other non-empty cell as a property by its column's name. Cells are kept as written.
 */
export const readCsv: FileReader = (content) => {
  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  // One row past the cap is enough to know the file is over it; the rest is never parsed.
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    preview: IMPORT_FEATURES_MAX + 1,
    delimitersToGuess: [',', ';', '\t', '|'],
  });
  const quoteError = parsed.errors.find((e) => e.type === 'Quotes');
  if (quoteError) {
    throw refuseContent(`row ${(quoteError.row ?? 0) + 2}: ${quoteError.message.toLowerCase()}.`);
  }
  const header = (parsed.meta.fields ?? []).filter((f) => f.trim() !== '');
  if (header.length === 0) throw refuseContent('is empty: a CSV needs a header row naming its columns.');
  if (findColumn(header, ['name', 'title']) === undefined) {
    throw refuseContent(`the header row names no name column (name or title). Header: ${header.join(' | ')}.`);
  }
  const columns = positionColumns(header);
  const decimalComma = parsed.meta.delimiter !== ',';
  // A folder column groups rows as KML folders do (collectionsFrom: "folders").
  const folderColumn = findColumn(header, ['folder']);
  const positionFields = new Set([...Object.values(columns), folderColumn]);
  const list = new FeatureList();
  for (const [i, row] of parsed.data.entries()) {
    // Row numbers as the spreadsheet shows them: the header is row 1.
    const where = `row ${i + 2}`;
    const cells: Record<string, ImportedValue> = {};
    for (const field of header) {
      const value = row[field];
      if (!positionFields.has(field) && typeof value === 'string' && value !== '') cells[field] = value;
    }
    const position = rowPosition(row, columns, where, decimalComma);
    const folder = folderColumn === undefined ? '' : (row[folderColumn] ?? '');
    list.add({
      where,
      folder: folder === '' ? undefined : folder,
      ...namedFields(cells),
      kind: 'point',
      lon: position?.lon,
      lat: position?.lat,
    });
  }
  return list.file;
};
