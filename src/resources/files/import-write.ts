import { isDeepStrictEqual } from 'node:util';
import { refuse } from '../../core/errors.ts';
import type { Stores } from '../../core/stores.ts';
import type { PreparedTrack } from '../../shared/tracks/index.ts';
import { emptyChapter, MEMBERS_MAX } from '../chapters/index.ts';
import { applyHikeFields, applyRouteFields, type RouteWrite, type StoredRoute } from '../routes/index.ts';
import { applySpotWrites, planSpotWrites, type SpotWritePlan } from '../spots/index.ts';
import type { LineCandidate, Skip, SpotCandidate } from './import-plan.ts';

/** A line with its track read and measured (outside the transaction). */
export interface PreparedLine extends LineCandidate {
  track: PreparedTrack;
}

type Action = 'create' | 'update' | 'unchanged';

interface LinePlan {
  line: PreparedLine;
  action: Action;
  current: StoredRoute | undefined;
  write: RouteWrite;
}

/** What an import would do to the guide as it stands; nothing of it written yet. */
export interface ImportPlan {
  spots: Array<{ candidate: SpotCandidate; plan: SpotWritePlan }>;
  lines: LinePlan[];
  skipped: Skip[];
  /**
   * The collections the spots join (collectionId's, and one per folder when asked), each with the
   * keys of the spots not in it yet; a folder without a collection of its name gets one (no id yet).
   */
  collections: CollectionPlan[];
}

interface CollectionPlan {
  id: string | undefined;
  name: string;
  newKeys: string[];
}

/** One feature in an import's answer: what became (or would become) of it. */
export interface ImportItem {
  where: string;
  kind: 'spot' | 'hike' | 'route' | 'feature';
  action: Action | 'skip';
  name?: string;
  spotKey?: string;
  /** The record's id once it exists (spotId, hikeId or routeId). */
  id?: string;
  reason?: string;
}

/** A line's record after the import: the file's name, description and line, by update_hike's or update_route's rules. */
function lineWrite(line: PreparedLine, current: StoredRoute | undefined, warn: (m: string) => void): RouteWrite {
  const fields = {
    name: line.name,
    ...(line.description !== undefined && { description: line.description }),
    track: { points: line.points },
  };
  return line.kind === 'hike'
    ? applyHikeFields(current, fields, line.track, warn)
    : applyRouteFields(current, fields, line.track, warn);
}

async function planLines(
  stores: Stores,
  guideId: string,
  lines: readonly PreparedLine[],
  warn: (m: string) => void,
): Promise<LinePlan[]> {
  const existing = new Map<string, StoredRoute>();
  for (const kind of new Set(lines.map((l) => l.kind))) {
    // The first of a name wins, as an assistant reading the list would take it.
    for (const route of (await stores.routes.list(guideId, kind, { includeTrack: true })).reverse()) {
      existing.set(`${kind} ${route.name}`, route);
    }
  }
  return lines.map((line) => {
    const current = existing.get(`${line.kind} ${line.name}`);
    const write = lineWrite(line, current, warn);
    const same =
      current !== undefined &&
      current.name === write.name &&
      isDeepStrictEqual(current.record, write.record) &&
      isDeepStrictEqual(current.track ?? null, write.track ?? null);
    return { line, current, write, action: current === undefined ? 'create' : same ? 'unchanged' : 'update' };
  });
}

/** Keys not yet members of a collection, within the members a collection holds. */
function joining(field: string, name: string, members: ReadonlySet<string | null>, keys: readonly string[]): string[] {
  const newKeys = keys.filter((key) => !members.has(key));
  if (members.size + newKeys.length > MEMBERS_MAX) {
    throw refuse(
      field,
      `"${name}" would hold ${members.size + newKeys.length} members, over the ${MEMBERS_MAX} it may.`,
    );
  }
  return newKeys;
}

/**
 * The collections the spots join: the one named by collectionId, and with `byFolder` the
 * collection named as each folder (the first of that name in reading order, or a new one).
 */
async function planCollections(
  stores: Stores,
  guideId: string,
  spots: readonly SpotCandidate[],
  collectionId: string | undefined,
  byFolder: boolean,
): Promise<CollectionPlan[]> {
  const plans: CollectionPlan[] = [];
  const keys = spots.map((c) => c.item.spotKey);
  if (collectionId !== undefined) {
    if (!(await stores.chapters.kindsIn(guideId, [collectionId])).has(collectionId)) {
      throw refuse(
        'collectionId',
        `no collection with id "${collectionId}" in this guide; list them with list_chapters.`,
      );
    }
    const chapter = await stores.chapters.require(collectionId);
    const members = new Set(chapter.members.map((m) => m.spotKey));
    plans.push({ id: collectionId, name: chapter.name, newKeys: joining('collectionId', chapter.name, members, keys) });
  }
  if (!byFolder) return plans;
  const folders = Map.groupBy(
    spots.filter((c) => c.folder !== undefined),
    (c) => c.folder as string,
  );
  if (folders.size === 0) return plans;
  const named = new Map<string, { id: string; members: Set<string | null> }>();
  for (const chapter of (await stores.chapters.list(guideId)).reverse()) {
    if (chapter.kind === 'collection')
      named.set(chapter.name, { id: chapter.id, members: new Set(chapter.members.map((m) => m.spotKey)) });
  }
  for (const [name, inFolder] of folders) {
    const found = named.get(name);
    plans.push({
      id: found?.id,
      name,
      newKeys: joining(
        'collectionsFrom',
        name,
        found?.members ?? new Set(),
        inFolder.map((c) => c.item.spotKey),
      ),
    });
  }
  return plans;
}

/** What the file's candidates would do to the guide as it stands now: reads only. */
export async function planImport(
  ctx: { stores: Stores; warn(message: string): void },
  guideId: string,
  candidates: { spots: SpotCandidate[]; lines: PreparedLine[]; skipped: Skip[] },
  collections: { collectionId: string | undefined; byFolder: boolean },
): Promise<ImportPlan> {
  const spotPlans = await planSpotWrites(
    ctx,
    guideId,
    candidates.spots.map((c) => c.item),
    (i) => candidates.spots[i]?.where ?? '',
  );
  return {
    spots: candidates.spots.map((candidate, i) => ({ candidate, plan: spotPlans[i] as SpotWritePlan })),
    lines: await planLines(ctx.stores, guideId, candidates.lines, ctx.warn),
    skipped: candidates.skipped,
    collections: await planCollections(
      ctx.stores,
      guideId,
      candidates.spots,
      collections.collectionId,
      collections.byFolder,
    ),
  };
}

/** Whether carrying the plan out would change any row. */
export function writesAnything(plan: ImportPlan): boolean {
  return (
    plan.spots.some((s) => s.plan.action !== 'unchanged') ||
    plan.lines.some((l) => l.action !== 'unchanged') ||
    plan.collections.some((c) => c.newKeys.length > 0)
  );
}

/** Carries the plan out in the caller's transaction; answers the ids of the records, by item. */
export async function applyImport(stores: Stores, guideId: string, plan: ImportPlan): Promise<Map<object, string>> {
  const ids = new Map<object, string>();
  const refs = await applySpotWrites(
    stores,
    guideId,
    plan.spots.map((s) => s.plan),
  );
  const spotIds = new Map(refs.map((r) => [r.spotKey, r.spotId]));
  for (const s of plan.spots) ids.set(s, spotIds.get(s.plan.spotKey) as string);
  for (const l of plan.lines) {
    if (l.action === 'create') ids.set(l, await stores.routes.insert(guideId, l.line.kind, l.write));
    else {
      const id = (l.current as StoredRoute).id;
      if (l.action === 'update') await stores.routes.replace(id, l.write);
      ids.set(l, id);
    }
  }
  for (const collection of plan.collections) {
    if (collection.newKeys.length === 0) continue;
    const id = collection.id ?? (await stores.chapters.insert(guideId, emptyChapter(collection.name)));
    await stores.chapters.appendSpots(
      id,
      collection.newKeys.map((key) => spotIds.get(key) as string),
    );
  }
  return ids;
}

/**
 * Every feature's fate, the ones to act on first: skipped, then created, updated, unchanged; in
 * file order within each. `ids` are the records written (after a real import) or found.
 */
export function itemsOf(plan: ImportPlan, ids: ReadonlyMap<object, string> = new Map()): ImportItem[] {
  const items: ImportItem[] = plan.skipped.map((s) => ({ ...s, action: 'skip' as const }));
  for (const s of plan.spots) {
    const id = ids.get(s) ?? (s.plan.action === 'create' ? undefined : s.plan.current.spotId);
    items.push({
      where: s.candidate.where,
      kind: 'spot',
      action: s.plan.action,
      name: s.candidate.item.name,
      spotKey: s.plan.spotKey,
      ...(id !== undefined && { id }),
    });
  }
  for (const l of plan.lines) {
    const id = ids.get(l) ?? l.current?.id;
    items.push({ where: l.line.where, kind: l.line.kind, action: l.action, name: l.line.name, ...(id && { id }) });
  }
  const rank = { skip: 0, create: 1, update: 2, unchanged: 3 };
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => rank[a.item.action] - rank[b.item.action] || a.i - b.i)
    .map((x) => x.item);
}
