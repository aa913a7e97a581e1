import { isDeepStrictEqual } from 'node:util';
import { refuse } from '../../core/errors.ts';
import type { Stores } from '../../core/stores.ts';
import type { PreparedTrack } from '../../shared/tracks/index.ts';
import { MEMBERS_MAX } from '../chapters/index.ts';
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
  /** The collection the spots join, and the keys of those not in it yet. */
  collection: { id: string; newKeys: string[] } | undefined;
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

async function planCollection(
  stores: Stores,
  guideId: string,
  collectionId: string,
  spotKeys: readonly string[],
): Promise<ImportPlan['collection']> {
  const kinds = await stores.chapters.kindsIn(guideId, [collectionId]);
  if (!kinds.has(collectionId)) {
    throw refuse(
      'collectionId',
      `no collection with id "${collectionId}" in this guide; list them with list_chapters.`,
    );
  }
  const members = new Set((await stores.chapters.require(collectionId)).members.map((m) => m.spotKey));
  const newKeys = spotKeys.filter((key) => !members.has(key));
  if (members.size + newKeys.length > MEMBERS_MAX) {
    throw refuse(
      'collectionId',
      `would hold ${members.size + newKeys.length} members, over the ${MEMBERS_MAX} a collection holds.`,
    );
  }
  return { id: collectionId, newKeys };
}

/** What the file's candidates would do to the guide as it stands now: reads only. */
export async function planImport(
  ctx: { stores: Stores; warn(message: string): void },
  guideId: string,
  candidates: { spots: SpotCandidate[]; lines: PreparedLine[]; skipped: Skip[] },
  collectionId: string | undefined,
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
    collection:
      collectionId === undefined
        ? undefined
        : await planCollection(
            ctx.stores,
            guideId,
            collectionId,
            candidates.spots.map((c) => c.item.spotKey),
          ),
  };
}

/** Whether carrying the plan out would change any row. */
export function writesAnything(plan: ImportPlan): boolean {
  return (
    plan.spots.some((s) => s.plan.action !== 'unchanged') ||
    plan.lines.some((l) => l.action !== 'unchanged') ||
    (plan.collection?.newKeys.length ?? 0) > 0
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
  if (plan.collection && plan.collection.newKeys.length > 0) {
    await stores.chapters.appendSpots(
      plan.collection.id,
      plan.collection.newKeys.map((key) => spotIds.get(key) as string),
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
