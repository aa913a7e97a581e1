import { ownValue } from '../../core/own.ts';
import { bboxContains } from '../../shared/geo.ts';
import { datedRows } from './dated-rows.ts';
import type { GuideContents } from './guide-contents.ts';
import { type StaleFact, staleFactsOf } from './staleness.ts';

export type Severity = 'blocking' | 'warning';

/**
 * Every code readiness can report, with its severity: a blocking code stops publish_changes and going
 * on sale, a warning does not. The one list of codes: tests prove each blocking one stops a publish alone.
 */
export const findingSeverities = {
  agreement_not_accepted: 'blocking',
  no_price: 'blocking',
  no_spots: 'blocking',
  required_property_empty: 'blocking',
  photo_without_credit: 'blocking',
  spot_outside_region: 'warning',
  photo_far_from_spot: 'warning',
  review_due: 'warning',
  fee_unchecked: 'warning',
  fee_expired: 'warning',
  status_expired: 'warning',
  schedule_expired: 'warning',
  event_over: 'warning',
  timetable_expired: 'warning',
  chapter_empty: 'warning',
  itinerary_archived_spot: 'warning',
  link_broken: 'warning',
} as const satisfies Record<string, Severity>;
export type FindingCode = keyof typeof findingSeverities;

export const blockingCodes = (Object.keys(findingSeverities) as FindingCode[]).filter(
  (code) => findingSeverities[code] === 'blocking',
);
export const findingKinds = [
  'guide',
  'spot',
  'place',
  'area',
  'route',
  'chapter',
  'photo',
  'property',
  'itinerary',
  'link',
] as const;
export type FindingKind = (typeof findingKinds)[number];

/** One thing between the guide and its buyers: what, how bad, where, and what to do. */
export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  where: { kind: FindingKind; id: string; name: string; field: string };
}

/** A gps fix farther than this from its spot's pin is likely another place. */
const PHOTO_PIN_KM = 2;
/** A fee last checked longer ago than this may have changed. */
const FEE_UNCHECKED_DAYS = 365;

/** Each stale fact's code: what ran out, named by its field. */
function staleCode(fact: StaleFact): FindingCode | undefined {
  if (fact.reason === 'review_due') return 'review_due';
  const field = fact.field.startsWith('fees[') ? 'fee' : fact.field;
  if (fact.reason === 'not_checked_recently') return field === 'fee' ? 'fee_unchecked' : undefined;
  return {
    fee: 'fee_expired',
    status: 'status_expired',
    schedule: 'schedule_expired',
    'schedule.specialDays': 'event_over',
    'transport.timetableValidUntil': 'timetable_expired',
  }[field] as FindingCode | undefined;
}

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * Every finding on a guide's working copy on `today`, blocking ones first. Works on what
 * readGuideContents read once: each check is one pass over one kind of row.
 */
export function readinessOf(c: GuideContents, today: string): Finding[] {
  const found: Finding[] = [];
  const add = (code: FindingCode, where: Finding['where'], message: string) =>
    found.push({ code, severity: findingSeverities[code], message, where });
  const guideAt = (field: string): Finding['where'] => ({
    kind: 'guide',
    id: c.guide.productId,
    name: c.guide.name,
    field,
  });

  if (!c.agreementAccepted) {
    add(
      'agreement_not_accepted',
      guideAt('agreement'),
      'The creator has not accepted the current creator agreement: they accept it in the studio; an assistant cannot.',
    );
  }
  if (c.guide.price === null) {
    add(
      'no_price',
      guideAt('price'),
      'The guide has no price: ask the creator for one and set it with set_guide_price.',
    );
  }
  const spots = c.spots.filter((s) => !s.archived);
  if (spots.length === 0) {
    add(
      'no_spots',
      guideAt('spots'),
      'The guide has no spots buyers can open: add spots with create_spot or unarchive some.',
    );
  }

  const bbox = c.guide.region?.bbox;
  const pins = new Map<string, { lat: number; lon: number }>();
  for (const s of spots) {
    if (s.lat === null || s.lon === null) continue;
    pins.set(s.spotId, { lat: s.lat, lon: s.lon });
    if (bbox && !bboxContains(bbox, s.lat, s.lon)) {
      add(
        'spot_outside_region',
        { kind: 'spot', id: s.spotId, name: s.name, field: 'lat' },
        `"${s.name}" lies outside the guide's region bbox: check its pin, or widen region.bbox with update_guide.`,
      );
    }
  }

  const required = c.properties.filter((p) => p.required && !p.archived);
  for (const s of spots) {
    for (const p of required) {
      if (isEmpty(ownValue(s.customValues, p.key))) {
        add(
          'required_property_empty',
          { kind: 'spot', id: s.spotId, name: s.name, field: `customValues.${p.key}` },
          `"${s.name}" has no value for the required property "${p.label}": fill it with update_spot, or make the property optional.`,
        );
      }
    }
  }

  const shown = new Set(spots.map((s) => s.spotId));
  for (const photo of c.photos) {
    if (photo.spotId !== null && !shown.has(photo.spotId)) continue;
    const name = photo.meta.alt ?? photo.meta.caption ?? photo.mediaId;
    if (photo.meta.credit === null) {
      add(
        'photo_without_credit',
        { kind: 'photo', id: photo.mediaId, name, field: 'credit' },
        'This photo has no credit and buyers would see it: ask the creator who took it and set credit with update_media (never guess one), or delete the photo.',
      );
    }
    const fix = photo.meta.takenAt;
    const pin = photo.spotId === null ? undefined : pins.get(photo.spotId);
    if (fix?.precision === 'gps' && pin) {
      const km = distanceKm(fix.lat, fix.lon, pin.lat, pin.lon);
      if (km > PHOTO_PIN_KM) {
        add(
          'photo_far_from_spot',
          { kind: 'photo', id: photo.mediaId, name, field: 'takenAt' },
          `The photo's gps fix is ${km.toFixed(1)} km from its spot's pin: check it shows that spot (set shows to nearby or view_from_spot if so) or move it to the right spot.`,
        );
      }
    }
  }

  // A chapter's cover is a photo buyers see: without a credit it blocks like any other (rule 6).
  for (const ch of c.chapters) {
    if (ch.coverStorageId === null || ch.coverCredit !== undefined) continue;
    add(
      'photo_without_credit',
      { kind: 'chapter', id: ch.id, name: ch.name, field: 'coverCredit' },
      `The cover of the ${ch.kind} "${ch.name}" has no credit and buyers would see it: ask the creator who took it ` +
        'and set coverCredit with update_chapter (never guess one), or clear the cover (coverStorageId null).',
    );
  }

  const dated = datedRows(spots, c.places, c.guide.areas);
  for (const row of dated) {
    for (const fact of staleFactsOf(row, today, FEE_UNCHECKED_DAYS)) {
      const code = staleCode(fact);
      if (code) add(code, { kind: fact.kind, id: fact.id, name: fact.name, field: fact.field }, fact.detail);
    }
  }

  for (const ch of c.chapters) {
    if (ch.members.length === 0) {
      add(
        'chapter_empty',
        { kind: 'chapter', id: ch.id, name: ch.name, field: 'members' },
        `The ${ch.kind} "${ch.name}" has no members, so buyers would open an empty page: add spots with set_chapter_members or delete it.`,
      );
    }
  }

  const archivedKeys = new Set(c.spots.filter((spot) => spot.archived).map((spot) => spot.spotKey));
  for (const it of c.itineraries) {
    if (it.archived) continue;
    it.days.forEach((day, d) => {
      day.stops.forEach((stop, i) => {
        if (stop.kind !== 'spot' || !archivedKeys.has(stop.spotKey)) return;
        add(
          'itinerary_archived_spot',
          { kind: 'itinerary', id: it.id, name: it.name, field: `days[${d}].stops[${i}].spotKey` },
          `Day ${d + 1} of "${it.name}" stops at the archived spot "${stop.spotKey}", which buyers cannot open: ` +
            'unarchive the spot or take the stop out with set_itinerary_days.',
        );
      });
    });
  }

  for (const check of c.linkChecks) {
    if (check.lastCheck?.status !== 'broken') continue;
    add(
      'link_broken',
      { kind: 'link', id: check.url, name: check.url, field: 'url' },
      `${check.url} answered ${check.lastCheck.httpStatus ?? check.lastCheck.error ?? 'nothing usable'} at the last ` +
        'check_links: get_link_report names where it is used; fix the address with the creator, or mark it with ' +
        'set_link_verified once a person opened it.',
    );
  }

  const rank = (f: Finding) => (f.severity === 'blocking' ? 0 : 1);
  return found.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      a.code.localeCompare(b.code) ||
      a.where.name.localeCompare(b.where.name) ||
      a.where.field.localeCompare(b.where.field),
  );
}
