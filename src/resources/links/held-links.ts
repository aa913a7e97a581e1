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

/**
 * Every kind of record that can hold links, read through its own store. The walk below finds the
 * links in whatever fields a record has, so a new field needs nothing here; a new kind of record
 * needs one line. Records are read as stored, never as answered: answers add the service's own
 * addresses (salesPageUrl, coverUrl), which are not the creator's links.
 */
const holders: ReadonlyArray<{ kind: LinkHolderKind; read(stores: Stores, guideId: string): Promise<Holder[]> }> = [
  {
    kind: 'spot',
    read: async (s, g) =>
      (await s.spots.list(g, { includeArchived: true })).map((r) => ({ id: r.spotId, name: r.name, fields: r })),
  },
  {
    kind: 'area',
    read: async (s, g) => (await s.areas.listForGuide(g)).map((r) => ({ id: r.id, name: r.name, fields: r })),
  },
  {
    kind: 'place',
    read: async (s, g) => (await s.places.listForGuide(g)).map((r) => ({ id: r.facilityId, name: r.name, fields: r })),
  },
  {
    kind: 'route',
    read: async (s, g) =>
      (await s.routes.list(g, 'route', false)).map((r) => ({ id: r.id, name: r.name, fields: r.record })),
  },
  {
    kind: 'hike',
    read: async (s, g) =>
      (await s.routes.list(g, 'hike', false)).map((r) => ({ id: r.id, name: r.name, fields: r.record })),
  },
  {
    kind: 'chapter',
    read: async (s, g) => (await s.chapters.list(g)).map((r) => ({ id: r.id, name: r.name, fields: r })),
  },
  {
    // The metadata only (creditUrl, sourcePageUrl): the files are this service's own.
    kind: 'photo',
    read: async (s, g) =>
      (await s.media.listForGuide(g)).map((r) => ({ id: r.mediaId, name: r.meta.caption, fields: r.meta })),
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
export async function heldLinks(stores: Stores, guideId: string): Promise<HeldLink[]> {
  const byKind = await Promise.all(holders.map((h) => h.read(stores, guideId)));
  const links = new Map<string, HeldLink>();
  holders.forEach(({ kind }, i) => {
    for (const record of byKind[i] as Holder[]) {
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
  });
  return [...links.values()];
}
