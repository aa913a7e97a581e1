import type { ReleaseKind, Snapshot } from '../publishing/index.ts';
import {
  credit,
  drawMap,
  html,
  Markup,
  type PhotoFields,
  pagePhoto,
  prose,
  type Region,
  type SpotFields,
  snapshotItems,
} from '../sales-page/index.ts';

/**
 * What buyers open inside a guide, as a release holds it: chapters and their pages, every spot on
 * the map, itineraries, hikes with their tracks, places, areas with their rules and fees, and every
 * photo with its credit. Read from a snapshot only, so the preview shows exactly what a publish
 * would write. Rows are read by the fields buyers see; anything missing is left out, never guessed.
 */

type Row = Record<string, unknown>;
/** A spot as the buyers' page reads it, and what the preview shows beyond that. */
interface Spot extends SpotFields {
  fees?: Fee[];
  areaId?: string | null;
}
interface Fee {
  label?: string;
  amount?: number | null;
  currency?: string;
  per?: string;
  note?: string;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/** Spots with a pin on the buyers' own map (land, sea and labels that never overlap), numbered in order. */
function map(spots: readonly Spot[], region: Region | null, label: string, caption: string): Markup {
  const points = spots.flatMap((s) =>
    s.lat === null || s.lon === null ? [] : [{ name: s.name, lat: s.lat, lon: s.lon }],
  );
  if (points.length === 0) return html``;
  const svg = new Markup(drawMap(region, points, { label }));
  return html`<figure class="map">${svg}<figcaption>${caption}</figcaption></figure>`;
}

function photoFigure(photo: PhotoFields, caption?: string): Markup {
  const p = pagePhoto(photo, caption);
  const words = p.caption ? html`<span class="caption">${p.caption}</span> ` : html``;
  return html`<figure><img src="${p.src}" srcset="${p.srcset}" sizes="(min-width: 46rem) 23rem, 100vw" width="${p.width}" height="${p.height}" alt="${p.alt}" loading="lazy" decoding="async"><figcaption>${words}${credit(p)}</figcaption></figure>`;
}

function fees(items: Fee[]): Markup {
  if (items.length === 0) return html``;
  return html`<h4>Fees</h4><ul>${items.map((f) => {
    const amount = num(f.amount) === null ? '' : `${f.amount} ${f.currency ?? ''}`.trim();
    return html`<li>${f.label ?? 'Fee'}${amount ? `: ${amount}` : ''}${f.per ? ` per ${f.per}` : ''}${f.note ? ` (${f.note})` : ''}</li>`;
  })}</ul>`;
}

function facts(entries: Array<[string, unknown]>): Markup {
  const shown = entries.filter(([, v]) => v !== null && v !== undefined && v !== '');
  if (shown.length === 0) return html``;
  return html`<dl>${shown.map(([k, v]) => html`<dt>${k}</dt><dd>${String(v)}</dd>`)}</dl>`;
}

/** A hike's track drawn as a line on its own small box (no tiles: nothing from another host). */
function trackSvg(track: unknown): Markup {
  const coordinates = list<number[]>((track as Row | null)?.coordinates).filter(
    (c) => Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number',
  );
  if (coordinates.length < 2) return html``;
  const lons = coordinates.map((c) => c[0] as number);
  const lats = coordinates.map((c) => c[1] as number);
  const [west, east, south, north] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
  const cos = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const across = Math.max((east - west) * cos, 1e-6);
  const down = Math.max(north - south, 1e-6);
  const width = 400;
  const height = Math.round(Math.min(400, Math.max(160, (width * down) / across)));
  const pad = 12;
  const scale = Math.min((width - 2 * pad) / across, (height - 2 * pad) / down);
  const x = (lon: number) => pad + (lon - west) * cos * scale;
  const y = (lat: number) => pad + (north - lat) * scale;
  const points = coordinates.map((c) => `${x(c[0] as number).toFixed(1)},${y(c[1] as number).toFixed(1)}`).join(' ');
  const start = coordinates[0] as number[];
  return html`<figure class="track"><svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Track of the hike"><polyline points="${points}"></polyline><circle cx="${x(start[0] as number).toFixed(1)}" cy="${y(start[1] as number).toFixed(1)}" r="6"></circle></svg><figcaption>The track (${coordinates.length} points; the dot is the start, north is up).</figcaption></figure>`;
}

function pageBlock(block: Row, spotsByKey: Map<string, Spot>, photos: Map<string, PhotoFields>): Markup {
  switch (block.kind) {
    case 'heading':
      return html`<h4>${text(block.text)}</h4>`;
    case 'paragraph':
      return prose(text(block.text) ?? '');
    case 'spot': {
      const spot = spotsByKey.get(String(block.spotKey));
      if (!spot) return html``;
      return html`<p><strong>${spot.name}</strong>${text(block.note) ? html` — ${block.note}` : html``}</p>`;
    }
    case 'photo': {
      const photo = photos.get(String(block.mediaId));
      if (photo) return photoFigure(photo, text(block.caption) ?? undefined);
      return text(block.caption) ? html`<p class="note">${block.caption}</p>` : html``;
    }
    case 'callout':
      return html`<div class="callout ${block.tone === 'warning' ? 'warning' : 'tip'}">${text(block.title) ? html`<strong>${block.title}</strong> ` : html``}${text(block.text)}</div>`;
    case 'facts':
      return html`${text(block.title) ? html`<h4>${block.title}</h4>` : html``}${facts(list<Row>(block.rows).map((r) => [String(r.label), r.value]))}`;
    case 'map': {
      const onMap = list<string>(block.spotKeys).flatMap((k) => spotsByKey.get(k) ?? []);
      const title = text(block.title);
      return html`${title ? html`<h4>${title}</h4>` : html``}${map(onMap, null, title ?? 'Map of this page', 'The spots of this page (north is up).')}`;
    }
    default:
      return html``;
  }
}

export function previewContents(snapshot: Snapshot, bbox: Region | null): Markup {
  const rows = (kind: ReleaseKind) => snapshotItems<Row>(snapshot, kind);
  const spots = snapshotItems<Spot>(snapshot, 'spot');
  const spotsByKey = new Map(spots.map((s) => [s.spotKey, s]));
  const photos = snapshotItems<PhotoFields>(snapshot, 'photo');
  const photoById = new Map(photos.map((p) => [p.mediaId, p]));
  const areas = rows('area');
  const areaName = new Map(areas.map((a) => [String(a.id), String(a.name)]));
  const places = rows('place');
  const placeName = new Map(places.map((p) => [String(p.facilityId), String(p.name)]));
  const routes = rows('route');
  const chapters = rows('chapter');
  const itineraries = rows('itinerary');
  const spotName = (key: unknown) => spotsByKey.get(String(key))?.name ?? String(key);

  const chapterPart = chapters.map(
    (
      c,
    ) => html`<article data-kind="chapter"><h3>${text(c.name)}</h3>${text(c.description) ? html`<p>${c.description}</p>` : html``}
${list<string>(c.body).map((p) => prose(p))}
${list<Row>(c.members).length > 0 ? html`<p class="note">In this chapter: ${list<Row>(c.members).map((m, i) => `${i > 0 ? ', ' : ''}${m.spotKey ? spotName(m.spotKey) : 'a chapter card'}`)}</p>` : html``}
${list<Row>(c.pages).map((page) => html`<section data-kind="page"><h4>${text(page.title) ?? 'Page'}</h4>${list<Row>(page.blocks).map((b) => pageBlock(b, spotsByKey, photoById))}</section>`)}</article>`,
  );
  const spotPart = spots.map((s) => {
    const own = photos.filter((p) => p.spotId === s.spotId);
    return html`<article data-kind="spot"><h3>${s.name}</h3>${s.areaId ? html`<p class="note">${areaName.get(s.areaId) ?? ''}</p>` : html``}${s.description ? prose(s.description) : html``}${fees(list<Fee>(s.fees))}${own.length > 0 ? html`<div class="photos">${own.map((p) => photoFigure(p))}</div>` : html``}</article>`;
  });
  const tripPart = itineraries.map(
    (
      it,
    ) => html`<article data-kind="itinerary"><h3>${text(it.name)}</h3>${text(it.description) ? html`<p>${it.description}</p>` : html``}${text(it.body) ? prose(String(it.body)) : html``}
<ol class="days">${list<Row>(it.days).map(
      (day, i) =>
        html`<li><strong>${text(day.title) ?? `Day ${i + 1}`}</strong><ul>${list<Row>(day.stops).map((stop) =>
          stop.kind === 'spot'
            ? html`<li>${text(stop.when) ? `${stop.when}: ` : ''}${spotName(stop.spotKey)}${text(stop.note) ? ` — ${stop.note}` : ''}</li>`
            : html`<li>${text(stop.when) ? `${stop.when}: ` : ''}${[stop.mode, stop.from && `from ${stop.from}`, stop.to && `to ${stop.to}`, stop.note].filter(Boolean).join(' ')}</li>`,
        )}</ul>${(day.overnight as Row | null)?.facilityId ? html`<p class="note">Overnight: ${placeName.get(String((day.overnight as Row).facilityId)) ?? 'a place to stay'}</p>` : html``}</li>`,
    )}</ol></article>`,
  );
  const routePart = routes.map((r) => {
    const record = (r.record ?? {}) as Row;
    const figures = facts([
      ['Difficulty', record.difficulty],
      ['Grade', record.grade],
      ['Distance', num(record.distanceKm) === null ? null : `${record.distanceKm} km`],
      [
        'Time',
        num(record.durationMin) === null
          ? null
          : `${Math.floor(Number(record.durationMin) / 60)} h ${Number(record.durationMin) % 60} min`,
      ],
      ['Ascent', num(record.gainM) === null ? null : `${record.gainM} m`],
      ['Descent', num(record.descentM) === null ? null : `${record.descentM} m`],
      ['Start', record.start],
      ['Mode', record.mode],
      ['Equipment', list<string>(record.equipment).join(', ') || null],
    ]);
    return html`<article data-kind="${r.kind === 'hike' ? 'hike' : 'route'}"><h3>${text(r.name)}</h3>${text(record.description) ? prose(String(record.description)) : html``}${figures}${trackSvg(r.track)}${fees(list<Fee>(record.fees))}</article>`;
  });
  const placePart = places.map(
    (p) =>
      html`<article data-kind="place"><h3>${text(p.name)}</h3><p class="note">${[p.kind, p.operator].filter((v) => text(v)).join(' · ')}</p>${text(p.description) ? prose(String(p.description)) : html``}${facts(
        [
          ['Cost', p.costRaw],
          ['Open', p.openRaw],
          ['Booking', p.bookingRequired === true ? 'required' : null],
          ['Near', list<string>(p.spotKeys).map(spotName).join(', ') || null],
        ],
      )}${fees(list<Fee>(p.fees))}</article>`,
  );
  const areaPart = areas.map(
    (
      a,
    ) => html`<article data-kind="area"><h3>${text(a.name)}</h3>${text(a.note) ? html`<p>${a.note}</p>` : html``}${text(a.season) ? html`<p class="note">Season: ${a.season}</p>` : html``}
${list<Row>(a.rules).length > 0 ? html`<h4>Rules</h4><ul>${list<Row>(a.rules).map((rule) => html`<li>${text(rule.text)}${list<number>(rule.months).length > 0 ? html` <span class="note">(months ${list<number>(rule.months).join(', ')})</span>` : html``}</li>`)}</ul>` : html``}
${fees(list<Fee>(a.fees))}</article>`,
  );

  const part = (id: string, title: string, items: Markup[]) =>
    items.length === 0 ? html`` : html`<section id="${id}"><h2>${title}</h2>${items}</section>`;
  return html`<div class="contents"><h2>Inside the guide</h2>
${map(spots, bbox, 'Map of every spot', 'Every spot of the guide on a map of its area (north is up).')}
${part('chapters', 'Chapters', chapterPart)}
${part('spots', 'Spots', spotPart)}
${part('itineraries', 'Itineraries', tripPart)}
${part('hikes', 'Hikes and routes', routePart)}
${part('places', 'Places', placePart)}
${part('areas', 'Areas, rules and fees', areaPart)}
${photos.length > 0 ? html`<section id="photos"><h2>Every photo</h2><div class="photos">${photos.map((p) => photoFigure(p))}</div></section>` : html``}
</div>`;
}
