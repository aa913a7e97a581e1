import { ownValue } from '../../core/own.ts';
import { bboxContains } from '../../shared/geo.ts';
import { haversineMeters } from '../../shared/tracks/index.ts';
import type { ChapterRow, PlaceRow } from './guide-contents.ts';
import { type Hit, type ReadinessRule, readinessRule } from './readiness-rule.ts';
import { staleFactRules } from './stale-fact.rules.ts';

/** A gps fix farther than this from its spot's pin is likely another place. */
export const PHOTO_PIN_KM = 2;

/** What a photo shows that explains a fix far from the pin (the spot seen from afar, the way there). */
const SHOWN_FROM_AFAR = new Set(['view_from_spot', 'nearby', 'approach']);

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

export const agreementNotAccepted = readinessRule({
  code: 'agreement_not_accepted',
  severity: 'blocking',
  when: 'the creator has not accepted the current creator agreement',
  clears: 'the creator accepts it in the studio; an assistant cannot',
  find: (guide) =>
    guide.contents.agreementAccepted
      ? []
      : [
          {
            where: guide.guideAt('agreement'),
            message:
              'The creator has not accepted the current creator agreement: they accept it in the studio; an assistant cannot.',
          },
        ],
});

export const noPrice = readinessRule({
  code: 'no_price',
  severity: 'blocking',
  when: 'the guide has no price',
  clears: 'ask the creator for a price, then `set_guide_price`; never invent one',
  find: (guide) =>
    guide.contents.guide.price !== null
      ? []
      : [
          {
            where: guide.guideAt('price'),
            message: 'The guide has no price: ask the creator for one and set it with set_guide_price.',
          },
        ],
});

export const noSpots = readinessRule({
  code: 'no_spots',
  severity: 'blocking',
  when: 'the guide has no spot buyers can open (none, or every one archived)',
  clears: 'add spots (`create_spot`, `upsert_spots`) or unarchive one',
  find: (guide) =>
    guide.liveSpots.length > 0
      ? []
      : [
          {
            where: guide.guideAt('spots'),
            message: 'The guide has no spots buyers can open: add spots with create_spot or unarchive some.',
          },
        ],
});

export const requiredPropertyEmpty = readinessRule({
  code: 'required_property_empty',
  severity: 'blocking',
  when: 'an unarchived spot has no value for a `required` custom property (`field` is `customValues.<key>`)',
  clears: 'fill the value with `update_spot` (ask the creator when unsure), or make the property optional',
  find(guide) {
    const required = guide.contents.properties.filter((p) => p.required && !p.archived);
    return guide.liveSpots.flatMap((spot) =>
      required
        .filter((p) => isEmpty(ownValue(spot.customValues, p.key)))
        .map((p) => ({
          where: { kind: 'spot' as const, id: spot.spotId, name: spot.name, field: `customValues.${p.key}` },
          message: `"${spot.name}" has no value for the required property "${p.label}": fill it with update_spot, or make the property optional with update_property.`,
        })),
    );
  },
});

/** The photos buyers would see: the guide's own and those of spots they can open. */
function shownPhotos(guide: Parameters<ReadinessRule['find']>[0]) {
  const live = new Set(guide.liveSpots.map((spot) => spot.spotId));
  return guide.contents.photos.filter((photo) => photo.spotId === null || live.has(photo.spotId));
}

const photoName = (photo: ReturnType<typeof shownPhotos>[number]) =>
  photo.meta.alt ?? photo.meta.caption ?? photo.mediaId;

export const photoWithoutCredit = readinessRule({
  code: 'photo_without_credit',
  severity: 'blocking',
  when: "a photo buyers would see, or a chapter's cover, has no credit",
  clears:
    'ask the creator who took it and set `credit` with `update_media` (a cover: `coverCredit` with `update_chapter`), or delete the photo or clear the cover; never guess a credit',
  find: (guide) => [
    ...shownPhotos(guide)
      .filter((photo) => photo.meta.credit === null)
      .map((photo) => ({
        where: { kind: 'photo' as const, id: photo.mediaId, name: photoName(photo), field: 'credit' },
        message:
          'This photo has no credit and buyers would see it: ask the creator who took it and set credit with update_media (never guess one), or delete the photo.',
      })),
    // A chapter's cover is a photo buyers see: without a credit it blocks like any other (rule 6).
    ...guide.contents.chapters
      .filter((chapter) => chapter.coverStorageId !== null && chapter.coverCredit === undefined)
      .map((chapter) => ({
        where: { kind: 'chapter' as const, id: chapter.id, name: chapter.name, field: 'coverCredit' },
        message:
          `The cover of the ${chapter.kind} "${chapter.name}" has no credit and buyers would see it: ask the creator who took it ` +
          'and set coverCredit with update_chapter (never guess one), or clear the cover (coverStorageId null).',
      })),
  ],
});

/** The photos the sales page draft names, each at its field. */
function salesPagePhotos(guide: Parameters<ReadinessRule['find']>[0]): { field: string; mediaId: string }[] {
  const page = guide.contents.salesPage;
  if (!page) return [];
  return [
    ...(page.heroMediaId === null ? [] : [{ field: 'salesPage.heroMediaId', mediaId: page.heroMediaId }]),
    ...page.gallery.map((photo, i) => ({ field: `salesPage.gallery[${i}].mediaId`, mediaId: photo.mediaId })),
  ];
}

export const salesPagePhotoMissing = readinessRule({
  code: 'sales_page_photo_missing',
  severity: 'blocking',
  when: 'the sales page draft names a photo that is no longer a photo of this guide (a draft saved before deletes took their photos out of it)',
  clears:
    'read the draft with `get_sales_page` and save it back with `save_sales_page_draft`, which leaves out photos that no longer exist',
  find(guide) {
    const photos = new Set(guide.contents.photos.map((photo) => photo.mediaId));
    return salesPagePhotos(guide)
      .filter(({ mediaId }) => !photos.has(mediaId))
      .map(({ field, mediaId }) => ({
        where: guide.guideAt(field),
        message:
          `The sales page draft names the photo "${mediaId}", which no longer exists, so the next publish would show ` +
          'a page without it: read the draft with get_sales_page and save it back with save_sales_page_draft, which leaves it out.',
      }));
  },
});

export const spotOutsideRegion = readinessRule({
  code: 'spot_outside_region',
  severity: 'warning',
  when: "an unarchived spot's pin lies outside the guide's `region.bbox`",
  clears: 'correct the pin with `update_spot`, or widen the bbox with `set_guide_region`',
  find(guide) {
    const bbox = guide.contents.guide.region?.bbox;
    if (!bbox) return [];
    return guide.liveSpots
      .filter((spot) => spot.lat !== null && spot.lon !== null && !bboxContains(bbox, spot.lat, spot.lon))
      .map((spot) => ({
        where: { kind: 'spot', id: spot.spotId, name: spot.name, field: 'lat' },
        message: `"${spot.name}" lies outside the guide's region bbox: correct its pin with update_spot, or widen the bbox with set_guide_region.`,
      }));
  },
});

export const photoFarFromSpot = readinessRule({
  code: 'photo_far_from_spot',
  severity: 'warning',
  when: `a photo's gps fix lies more than ${PHOTO_PIN_KM} km from its spot's pin, and it is not marked as showing the spot from afar`,
  clears:
    'if it shows the spot from afar or the way there, set `shows` to `view_from_spot`, `nearby` or `approach` with `update_media`; if the fix is wrong, correct `takenAt`; if it shows another place, ask the creator where it belongs',
  find(guide) {
    const pins = new Map(
      guide.liveSpots.flatMap((spot) =>
        spot.lat === null || spot.lon === null ? [] : [[spot.spotId, { lat: spot.lat, lon: spot.lon }] as const],
      ),
    );
    const hits: Hit[] = [];
    for (const photo of shownPhotos(guide)) {
      const fix = photo.meta.takenAt;
      const pin = photo.spotId === null ? undefined : pins.get(photo.spotId);
      if (fix?.precision !== 'gps' || !pin || SHOWN_FROM_AFAR.has(photo.meta.shows?.kind ?? '')) continue;
      const km = haversineMeters([fix.lon, fix.lat], [pin.lon, pin.lat]) / 1000;
      if (km <= PHOTO_PIN_KM) continue;
      hits.push({
        where: { kind: 'photo', id: photo.mediaId, name: photoName(photo), field: 'takenAt' },
        message:
          `The photo's gps fix is ${km.toFixed(1)} km from its spot's pin: if it shows the spot from afar or the way ` +
          'there, set shows to view_from_spot, nearby or approach with update_media; if the fix is wrong, correct ' +
          'takenAt; if it shows another place, ask the creator where it belongs.',
      });
    }
    return hits;
  },
});

/** A chapter shows buyers something: prose, an intro, pages, a card, or a spot they can open. */
function showsSomething(chapter: ChapterRow, liveKeys: ReadonlySet<string>): boolean {
  if (chapter.body.length > 0 || chapter.intro !== null || chapter.pages.length > 0) return true;
  return chapter.members.some((m) => m.memberCollectionId !== null || (m.spotKey !== null && liveKeys.has(m.spotKey)));
}

export const chapterEmpty = readinessRule({
  code: 'chapter_empty',
  severity: 'warning',
  when: 'a chapter or collection would show buyers nothing: no body, intro or pages, no card, and no spot they can open',
  clears:
    'add spots buyers can open with `set_chapter_members` (or unarchive its spots), give a chapter a body (`update_chapter`), an intro or pages, or delete it',
  find(guide) {
    const liveKeys = new Set(guide.liveSpots.map((spot) => spot.spotKey));
    return guide.contents.chapters
      .filter((chapter) => !showsSomething(chapter, liveKeys))
      .map((chapter) => ({
        where: { kind: 'chapter', id: chapter.id, name: chapter.name, field: 'members' },
        message:
          chapter.kind === 'chapter'
            ? `The chapter "${chapter.name}" shows buyers nothing: it has no body, intro or pages and no spot they can ` +
              'open. Write its body (update_chapter), intro (set_chapter_intro) or pages (set_chapter_pages), add ' +
              'spots with set_chapter_members, or delete it.'
            : `The collection "${chapter.name}" shows buyers nothing: none of its members is a spot they can open ` +
              'or a card. Add spots with set_chapter_members (or unarchive its spots), or delete it.',
      }));
  },
});

export const itineraryArchivedSpot = readinessRule({
  code: 'itinerary_archived_spot',
  severity: 'warning',
  when: 'an unarchived itinerary stops at an archived spot, which buyers cannot open',
  clears: 'unarchive the spot, or take the stop out with `set_itinerary_days`',
  find(guide) {
    const archivedKeys = new Set(guide.contents.spots.filter((spot) => spot.archived).map((spot) => spot.spotKey));
    const hits: Hit[] = [];
    for (const it of guide.contents.itineraries) {
      if (it.archived) continue;
      it.days.forEach((day, d) => {
        day.stops.forEach((stop, i) => {
          if (stop.kind !== 'spot' || !archivedKeys.has(stop.spotKey)) return;
          hits.push({
            where: { kind: 'itinerary', id: it.id, name: it.name, field: `days[${d}].stops[${i}].spotKey` },
            message:
              `Day ${d + 1} of "${it.name}" stops at the archived spot "${stop.spotKey}", which buyers cannot open: ` +
              'unarchive the spot or take the stop out with set_itinerary_days.',
          });
        });
      });
    }
    return hits;
  },
});

/** Why the last check called a link broken, as a sentence. */
function brokenBecause(check: { httpStatus: number | null; error: string | null }): string {
  if (check.error) return check.error;
  return check.httpStatus === null ? 'It gave no usable answer.' : `The page answered HTTP ${check.httpStatus}.`;
}

export const linkBroken = readinessRule({
  code: 'link_broken',
  severity: 'warning',
  when: 'a link the guide holds was `broken` at the last `check_links`, and no person verified it',
  clears:
    'fix the address with the creator in every use `get_link_report` lists, then check it again; or, once a person opened it and it is right, mark it with `set_link_verified`',
  find: (guide) =>
    guide.contents.linkChecks
      .flatMap(({ url, lastCheck, verifiedAt }) =>
        lastCheck?.status === 'broken' && verifiedAt === null ? [{ url, lastCheck }] : [],
      )
      .map(({ url, lastCheck }) => ({
        where: { kind: 'link', id: url, name: url, field: 'url' },
        message:
          `The last check_links found the link ${url} broken. ${brokenBecause(lastCheck)} ` +
          'get_link_report names every record that uses it: fix the address there with the creator, or, once a ' +
          'person opened the page and it is right, mark it with set_link_verified.',
      })),
});

/** Where buyers' maps can put a place: its own pin or map link. */
const hasPosition = (place: PlaceRow) => (place.lat !== null && place.lon !== null) || !isEmpty(place.mapsUrl);

export const placeWithoutPosition = readinessRule({
  code: 'place_without_position',
  severity: 'warning',
  when: 'a place has no `lat`/`lon` and no `mapsUrl`, nor does the place it is inside, so buyers cannot find it on a map',
  clears:
    'ask the creator (or an official source) where it is and set `lat`, `lon` and `mapsUrl` with `update_facility`; never guess coordinates',
  find(guide) {
    const places = new Map(guide.contents.places.map((place) => [place.facilityId, place]));
    return guide.contents.places
      .filter((place) => {
        if (hasPosition(place)) return false;
        const outer = place.insideId === null ? undefined : places.get(place.insideId);
        return !(outer && hasPosition(outer));
      })
      .map((place) => ({
        where: { kind: 'place', id: place.facilityId, name: place.name, field: 'lat' },
        message:
          `The place "${place.name}" has no position (no lat and lon, no mapsUrl), so buyers cannot find it on a ` +
          'map: ask the creator or an official source where it is and set lat, lon and mapsUrl with ' +
          'update_facility. Never guess coordinates.',
      }));
  },
});

/**
 * Every readiness rule, one per code: the one list of codes. A finding takes its code and severity
 * from its rule; the playbook's and the reference's lists of codes are written from this table
 * (`npm run docs`), and test/publishing/each-rule.test.ts gives each rule the smallest guide
 * that trips it and the fix that clears it.
 */
export const readinessRules = [
  agreementNotAccepted,
  noPrice,
  noSpots,
  requiredPropertyEmpty,
  photoWithoutCredit,
  salesPagePhotoMissing,
  spotOutsideRegion,
  photoFarFromSpot,
  ...staleFactRules,
  chapterEmpty,
  itineraryArchivedSpot,
  linkBroken,
  placeWithoutPosition,
] as const;
