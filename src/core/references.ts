/**
 * The records other records may point at, by kind, as a delete describes one to the holders. Each
 * resource whose records may be pointed at merges its kinds in from its `index.ts`
 * (`declare module '…/core/references.ts' { interface ReferenceTargets { spot: DeletedSpot } }`),
 * as it merges its stores into `Stores`, so the core names no resource.
 */
// biome-ignore lint/suspicious/noEmptyInterface: resources merge their kinds into it
export interface ReferenceTargets {}

export type ReferenceKind = keyof ReferenceTargets;

/**
 * What a record about to be deleted asks of whoever points at it; the call context offers it, in
 * a write only, so every holder's step runs in the delete's transaction.
 */
export interface DeletesReferences {
  /**
   * Runs, in the order of the resources, every declared holder's step for a record of this kind
   * about to be deleted, before its row goes. A step that throws refuses the delete: the
   * transaction rolls back, and nothing any step wrote stays.
   */
  deleteReferencesTo<K extends ReferenceKind>(kind: K, target: ReferenceTargets[K]): Promise<void>;
}

/** One holder's step for one kind: the declaration reduced to what running it needs. */
export interface ReferenceStep<C> {
  to: ReferenceKind;
  onDelete(target: never, ctx: C): Promise<void>;
}

/** The declared steps by the kind they point at, each kind's in the order they were declared. */
export function stepsByKind<C>(declared: readonly ReferenceStep<C>[]): ReadonlyMap<ReferenceKind, ReferenceStep<C>[]> {
  return Map.groupBy(declared, (step) => step.to);
}

/** Runs the holders' steps for one record about to be deleted, one after another, on its call. */
export async function deleteReferences<C, K extends ReferenceKind>(
  steps: ReadonlyMap<ReferenceKind, readonly ReferenceStep<C>[]>,
  kind: K,
  target: ReferenceTargets[K],
  ctx: C,
): Promise<void> {
  for (const step of steps.get(kind) ?? []) {
    await (step.onDelete as (target: ReferenceTargets[K], ctx: C) => Promise<void>)(target, ctx);
  }
}
