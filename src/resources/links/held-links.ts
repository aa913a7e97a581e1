import type { GuideParts, GuideRef } from '../../core/guide-contents.ts';
import type { Stores } from '../../core/stores.ts';
import { forEachString } from '../../core/walk.ts';

export type LinkHolderKind = 'spot' | 'area' | 'place' | 'route' | 'hike' | 'chapter' | 'photo';

/** One place a link is used: the record and the field path inside it (`fees[2].sourceUrl`). */
export interface LinkUse {
  kind: LinkHolderKind;
  id: string;
  name: string | null;
  field: string;
}

/** A URL the guide holds and every place it is used, in guide order. */
export interface HeldLink {
  url: string;
  uses: LinkUse[];
}

/** A record as the walker sees it: what to name it by and the fields to look through. */
interface Holder {
  id: string;
  name: string | null;
  fields: unknown;
}

/** The parts of a guide whose records can hold links (core/guide-contents.ts); tracks hold none. */
export const LINK_HOLDER_PARTS = ['spots', 'areas', 'places', 'routes', 'chapters', 'photos'] as const;

/**
 * A guide's records that can hold links, as the guide's reader reads them. Readiness reads them
 * anyway, so it hands them over instead of having them read a second time.
 */
export type LinkHolderRecords = Pick<GuideParts, (typeof LINK_HOLDER_PARTS)[number]>;

/**
 * Every kind of record that can hold links. The walk below finds the links in whatever fields a
 * record has, so a new field needs nothing here; a new kind of record needs one line. Records are
 * walked as stored, never as answered: answers add the service's own addresses (salesPageUrl,
 * coverUrl), which are not the creator's links.
 */
const holders: ReadonlyArray<{ kind: LinkHolderKind; of(records: LinkHolderRecords): Holder[] }> = [
  { kind: 'spot', of: (r) => r.spots.map((s) => ({ id: s.spotId, name: s.name, fields: s })) },
  { kind: 'area', of: (r) => r.areas.map((a) => ({ id: a.id, name: a.name, fields: a })) },
  { kind: 'place', of: (r) => r.places.map((p) => ({ id: p.facilityId, name: p.name, fields: p })) },
  {
    kind: 'route',
    of: (r) => r.routes.filter((x) => x.kind === 'route').map((x) => ({ id: x.id, name: x.name, fields: x.record })),
  },
  {
    kind: 'hike',
    of: (r) => r.routes.filter((x) => x.kind === 'hike').map((x) => ({ id: x.id, name: x.name, fields: x.record })),
  },
  { kind: 'chapter', of: (r) => r.chapters.map((c) => ({ id: c.id, name: c.name, fields: c })) },
  {
    // The metadata only (creditUrl, sourcePageUrl): the files are this service's own.
    kind: 'photo',
    of: (r) => r.photos.map((m) => ({ id: m.mediaId, name: m.meta.caption, fields: m.meta })),
  },
];

/**
 * A string is a link when the whole of it is an http(s) address, whatever its field is called:
 * link fields (`url`, `…Url`, `website`) hold them, and so do hike sources, which are plain
 * strings (links or text). Map links written as `geo:` URIs are coordinates, not pages: left out.
 */
export function isWebLink(text: string): boolean {
  return /^https?:\/\/[^\s/?#]/i.test(text) && !/\s/.test(text) && URL.canParse(text);
}

/** Every link the guide's records hold, each once, with where it is used; in guide order. */
export async function heldLinks(stores: Stores, guide: GuideRef): Promise<HeldLink[]> {
  return linksHeldBy(await stores.guideContents.read(guide, LINK_HOLDER_PARTS));
}

/** Every link in records already read, each once, with where it is used; in guide order. */
export function linksHeldBy(records: LinkHolderRecords): HeldLink[] {
  const links = new Map<string, HeldLink>();
  for (const { kind, of } of holders) {
    for (const record of of(records)) {
      forEachString(record.fields, (text, _field, path) => {
        if (!isWebLink(text)) return;
        let link = links.get(text);
        if (!link) {
          link = { url: text, uses: [] };
          links.set(text, link);
        }
        link.uses.push({ kind, id: record.id, name: record.name, field: path() });
      });
    }
  }
  return [...links.values()];
}
