import assert from 'node:assert/strict';
import { findingCodes } from '../../src/resources/publishing/index.ts';
import { assertOk } from '../helpers/answers.ts';
import type { Api } from '../helpers/api.ts';
import type { Harness } from '../helpers/harness.ts';
import { flat } from '../helpers/images.ts';
import { uploadRaw } from '../helpers/uploads.ts';

/**
 * Every paged list, with what the cursor suites need of it: the arity of the
 * sort key it pages by (for forged cursors of the form cursors once had), and the filters of the
 * call. A guide filled by `fillGuide` holds two or more records in each, so `limit: 1` answers a
 * cursor in every one.
 */
export interface PagedList {
  name: string;
  /** Values in the sort key a page resumes after. */
  arity: number;
  /** What the readable cursors of old said before the sort key: the list and its filters. */
  oldScope: (productId: string) => string;
  /** The call names the guide (every list but list_guides). */
  onGuide: boolean;
  /** It has a compact view. */
  compact?: true;
  /** Another filter of the same list, so the cursor of the call without it is of other filters. */
  otherFilter?: (guide: FilledGuide) => Record<string, unknown>;
}

const named = { nameContains: 'a' };

export const PAGED_LISTS: readonly PagedList[] = [
  {
    name: 'list_guides',
    compact: true,
    arity: 2,
    oldScope: () => 'guides status=* name=*',
    onGuide: false,
    otherFilter: () => ({ status: 'draft' }),
  },
  {
    name: 'list_spots',
    compact: true,
    arity: 3,
    oldScope: () => 'spots archived=false area=* chapter=* name=*',
    onGuide: true,
    otherFilter: () => ({ includeArchived: true }),
  },
  {
    name: 'list_chapters',
    compact: true,
    arity: 3,
    oldScope: () => 'chapters name=*',
    onGuide: true,
    otherFilter: () => named,
  },
  {
    name: 'list_facilities',
    compact: true,
    arity: 2,
    oldScope: () => 'places name=*',
    onGuide: true,
    otherFilter: () => named,
  },
  {
    name: 'list_routes',
    compact: true,
    arity: 2,
    oldScope: () => 'routes name=*',
    onGuide: true,
    otherFilter: () => named,
  },
  {
    name: 'list_hikes',
    compact: true,
    arity: 2,
    oldScope: () => 'hikes name=*',
    onGuide: true,
    otherFilter: () => named,
  },
  {
    name: 'list_itineraries',
    compact: true,
    arity: 3,
    oldScope: () => 'itineraries name=*',
    onGuide: true,
    otherFilter: () => named,
  },
  {
    name: 'list_media',
    compact: true,
    arity: 3,
    oldScope: () => 'media spot=*',
    onGuide: true,
    otherFilter: (guide) => ({ spotId: guide.spotId }),
  },
  { name: 'list_properties', arity: 1, oldScope: () => 'properties', onGuide: true },
  {
    name: 'list_stale_notices',
    arity: 5,
    oldScope: () => 'stale older=*',
    onGuide: true,
    otherFilter: () => ({ olderThanDays: 30 }),
  },
  {
    name: 'get_guide_readiness',
    arity: 5,
    oldScope: (productId) => `readiness ${productId} code=`,
    onGuide: true,
    otherFilter: () => ({ code: findingCodes[0] }),
  },
  {
    name: 'get_publish_status',
    arity: 5,
    oldScope: (productId) => `publish-status ${productId}`,
    onGuide: true,
  },
  {
    name: 'get_link_report',
    arity: 1,
    oldScope: () => 'links status=*',
    onGuide: true,
    otherFilter: () => ({ status: 'unchecked' }),
  },
];

export interface FilledGuide {
  productId: string;
  /** A spot of the guide, that one photo shows. */
  spotId: string;
}

/** A guide of the creator whose write key `api` holds, with two or more records in every list. */
export async function fillGuide(h: Harness, api: Api, key: string, name: string): Promise<FilledGuide> {
  const created = async (operation: string, args: Record<string, unknown>) => {
    const a = await api.call(operation, args);
    assertOk(a, 201);
    return a.body;
  };
  const productId = (await created('create_guide', { name })).productId as string;
  const spots = ['Lake', 'Gorge', 'Castle'].map((spotName, i) => ({
    spotKey: `s-${i}`,
    name: spotName,
    links: [{ kind: 'official', url: `https://example.com/${i}` }],
    reviewBy: `2020-01-0${i + 1}`,
  }));
  const upserted = await api.call('upsert_spots', { productId, spots });
  assertOk(upserted);
  for (const kind of ['Ferry', 'Alpine']) {
    await created('create_chapter', { productId, name: `${kind} chapter` });
    await created('create_facility', { productId, kind: 'food', name: `${kind} tavern` });
    await created('create_route', { productId, name: `${kind} road` });
    await created('create_hike', { productId, name: `${kind} trail` });
    await created('create_itinerary', { productId, name: `${kind} days` });
    await created('create_property', { productId, label: `${kind} note`, kind: 'shortLabel' });
  }
  const spotId = (await api.call('list_spots', { productId, limit: 1 })).body.spots[0].spotId as string;
  const photo = await flat(16, 12).png().toBuffer();
  for (const fields of [{ productId, spotId }, { productId }]) {
    const up = await uploadRaw(h, key, photo, 'image/png', fields);
    assert.equal(up.status, 201, JSON.stringify(up.body));
  }
  return { productId, spotId };
}

/** The call of `list` on `guide` with `extra` fields. */
export function argsOf(list: PagedList, guide: FilledGuide, extra: Record<string, unknown> = {}) {
  return list.onGuide ? { productId: guide.productId, ...extra } : { ...extra };
}

/** The cursor of the second page of `list`, as the service issues it. */
export async function issuedCursor(api: Api, list: PagedList, guide: FilledGuide): Promise<string> {
  const a = await api.call(list.name, argsOf(list, guide, { limit: 1 }));
  assertOk(a);
  assert.equal(typeof a.body.nextCursor, 'string', `${list.name} has a second page`);
  return a.body.nextCursor as string;
}
