import { html, type Markup } from './html.ts';
import { frameOf, type MapFrame, type Region } from './map-frame.ts';
import { type Disc, placeLabels, type Rect } from './map-labels.ts';
import { landPath } from './map-land.ts';
import { textWidth } from './map-text.ts';

export type { Region } from './map-frame.ts';

/** A place on the map: a marker showing `marker` (its number, by default its place in the list), labelled with its name. */
export interface MapPoint {
  name: string;
  lat: number;
  lon: number;
  marker?: string;
}

export interface MapOptions {
  /** What the map is, for screen readers. */
  label?: string;
}

const WIDTH = 480;
const MARKER_RADIUS = 12;
const LABEL_STYLE = { fontSize: 15, gap: 3, pad: 2 };
const SCALE_FONT = 12;
/**
 * Below this width the map draws no coastline: Natural Earth's 1:10 million outline has a point
 * every few kilometres, so across a town it would put the shore kilometres off
 * (docs/decisions/sales-page.md).
 */
export const COAST_MIN_KM = 30;
/** Above this width a scale at the middle latitude would mislead towards the edges: none is drawn. */
const SCALE_MAX_KM = 1500;

const COLOURS = {
  sea: '#cde1ec',
  // No coastline stroke: Natural Earth cuts land at the antimeridian, and a stroke would draw the cut.
  land: '#e9eddc',
  plain: '#eef1e5',
  grid: '#dce3d4',
  marker: '#1f6f54',
  ink: '#1d2421',
  halo: '#ffffff',
};

/** Land and sea, or on a small map a plain ground with a faint grid (no coastline to trust there). */
function ground(frame: MapFrame): Markup {
  const { width, height } = frame;
  if (frame.widthKm < COAST_MIN_KM) {
    const lines: string[] = [];
    for (let i = 1; i < 8; i++) lines.push(`M${(width * i) / 8},0V${height}M0,${(height * i) / 8}H${width}`);
    return html`<rect width="${width}" height="${height}" fill="${COLOURS.plain}"></rect><path class="grid" d="${lines.join('')}" stroke="${COLOURS.grid}" fill="none"></path>`;
  }
  const land = landPath(frame);
  const coast = land ? html`<path class="land" d="${land}" fill="${COLOURS.land}"></path>` : html``;
  return html`<rect class="sea" width="${width}" height="${height}" fill="${COLOURS.sea}"></rect>${coast}`;
}

/** The longest round length (1, 2 or 5 times a power of ten, in km) that fits a quarter of the width. */
function scaleLength(frame: MapFrame): { km: number; units: number } {
  const kmPerUnit = frame.widthKm / frame.width;
  const most = (frame.width / 4) * kmPerUnit;
  const power = 10 ** Math.floor(Math.log10(most));
  const km = [5, 2, 1].map((f) => f * power).find((k) => k <= most) ?? power;
  return { km, units: km / kmPerUnit };
}

const distance = (km: number) => (km < 1 ? `${Math.round(km * 1000)} m` : `${km} km`);

/** A scale bar in the first corner (bottom left, bottom right, top left, top right) no marker touches. */
function scaleBar(frame: MapFrame, markers: readonly Disc[]): { markup: Markup; box: Rect | null } {
  if (frame.widthKm > SCALE_MAX_KM) return { markup: html``, box: null };
  const { km, units } = scaleLength(frame);
  const text = distance(km);
  const width = Math.max(units, textWidth(text, SCALE_FONT)) + 8;
  const height = SCALE_FONT + 14;
  const corners = [
    { x: 6, y: frame.height - height - 6 },
    { x: frame.width - width - 6, y: frame.height - height - 6 },
    { x: 6, y: 6 },
    { x: frame.width - width - 6, y: 6 },
  ];
  const clear = (box: Rect) =>
    markers.every(
      (m) => m.x + m.r <= box.minX || m.x - m.r >= box.maxX || m.y + m.r <= box.minY || m.y - m.r >= box.maxY,
    );
  const corner = corners.map((c) => ({ minX: c.x, minY: c.y, maxX: c.x + width, maxY: c.y + height })).find(clear);
  if (!corner) return { markup: html``, box: null };
  const x = corner.minX + 4;
  const bottom = corner.maxY - 5;
  const bar = `M${x.toFixed(1)},${bottom - 5}v5h${units.toFixed(1)}v-5`;
  return {
    markup: html`<g class="scale"><path d="${bar}" fill="none" stroke="${COLOURS.ink}" stroke-width="1.5"></path><text x="${x.toFixed(1)}" y="${bottom - 9}" font-size="${SCALE_FONT}" fill="${COLOURS.ink}" stroke="${COLOURS.halo}" stroke-width="3" paint-order="stroke">${text}</text></g>`,
    box: corner,
  };
}

const at = (n: number) => n.toFixed(1);

/**
 * A map of a region and places on it, as an SVG string that needs nothing else: no tile server,
 * no script, no stylesheet (colours and fonts are attributes, which a strict Content-Security-
 * Policy allows), so the buyers' page and the studio's preview draw the same map. Land and sea
 * come from Natural Earth through npm (map-land.ts); each place gets a numbered marker and, where
 * there is room, its name beside it: no name overlaps another or a marker, and none is cut at the
 * edge (map-labels.ts). The region (`[west, south, east, north]`, west > east across the
 * antimeridian) is grown to hold every place. Empty when there is neither a region nor a place.
 * A pure function of its arguments.
 */
export function drawMap(region: Region | null, points: readonly MapPoint[], options: MapOptions = {}): string {
  const places = points.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon));
  if (places.length === 0 && region === null) return '';
  const frame = frameOf(region, places, WIDTH);
  const markers = places.map((p, i) => ({
    x: frame.x(frame.unwrap(p.lon)),
    y: frame.y(p.lat),
    r: MARKER_RADIUS,
    number: p.marker ?? String(i + 1),
  }));
  const scale = scaleBar(frame, markers);
  const labels = placeLabels(
    places.map((p, i) => ({ text: p.name, marker: markers[i] as Disc })),
    frame,
    scale.box ? [scale.box] : [],
    LABEL_STYLE,
  );
  const pins = markers.map((m) => html`<circle class="pin" cx="${at(m.x)}" cy="${at(m.y)}" r="${m.r}"></circle>`);
  const numbers = markers.map((m) => html`<text x="${at(m.x)}" y="${at(m.y + 4)}">${m.number}</text>`);
  const names = labels.flatMap((label) =>
    (label?.lines ?? []).map(
      (l) =>
        html`<text class="label" x="${at(l.x)}" y="${at(l.baseline)}" textLength="${at(l.width)}" lengthAdjust="spacingAndGlyphs">${l.text}</text>`,
    ),
  );
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${frame.width} ${frame.height}" width="${frame.width}" height="${frame.height}" role="img" aria-label="${options.label ?? 'Map of the spots'}" font-family="Helvetica,Arial,sans-serif" font-weight="700">${ground(frame)}${scale.markup}<g class="pins" fill="${COLOURS.marker}" stroke="${COLOURS.halo}" stroke-width="2">${pins}</g><g class="numbers" font-size="12" fill="#fff" text-anchor="middle">${numbers}</g><g class="labels" font-size="${LABEL_STYLE.fontSize}" fill="${COLOURS.ink}" stroke="${COLOURS.halo}" stroke-width="4" stroke-linejoin="round" paint-order="stroke">${names}</g></svg>`
    .text;
}
