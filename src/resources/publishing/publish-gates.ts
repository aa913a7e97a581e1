import { ApiError } from '../../core/errors.ts';
import type { SortValue } from '../../core/paging.ts';
import type { Stores } from '../../core/stores.ts';
import { type GuideContents, readGuideContents } from './guide-contents.ts';
import { type Finding, findingSortKey, readinessOf } from './readiness.ts';
import type { ReleaseInfo } from './release.store.ts';
import { captureImage } from './release-image.ts';
import { diffRowHashes, type KindChanges, serializeSnapshot, snapshotRows } from './snapshot.ts';

export interface Gate {
  code: string;
  message: string;
}

/**
 * Findings and gates an answer holds at most when the caller says nothing (the not_publishable
 * error holds as many): about 300 bytes each, so a default answer stays small whatever the guide's size.
 */
export const FINDINGS_PAGE = { default: 50, max: 200 };

/** A publish gate or finding with its severity, in the order they are listed and paged. */
export interface PublishEntry extends Gate {
  blocking: boolean;
  key: SortValue[];
}

/**
 * What stands before a publish, in order: `not_live` (when a live guide is needed and this one is
 * not), then every finding, blocking ones first.
 */
/** Whether a guide that is not on sale yet is a gate: yes for publish_changes, no when going live. */
export interface GateOptions {
  needsLive: boolean;
}

export function publishEntries(
  c: GuideContents,
  findings: readonly Finding[],
  { needsLive }: GateOptions,
): PublishEntry[] {
  const entries: PublishEntry[] = [];
  if (needsLive && c.guide.status !== 'published') {
    entries.push({
      code: 'not_live',
      message: `The guide is ${c.guide.status}, not on sale: the creator puts it on sale in the studio, which publishes its first release.`,
      blocking: true,
      // Before every finding's key: the gate leads the list.
      key: [0, ''],
    });
  }
  for (const f of findings) {
    entries.push({ code: f.code, message: f.message, blocking: f.severity === 'blocking', key: findingSortKey(f) });
  }
  return entries;
}

/** The open gates of a publish: a guide that is not live, then every blocking finding. */
export function blockingGates(c: GuideContents, findings: readonly Finding[], options: GateOptions): Gate[] {
  return publishEntries(c, findings, options)
    .filter((entry) => entry.blocking)
    .map(({ code, message }) => ({ code, message }));
}

/**
 * The refusal of a publish: the codes that block it, and the first gates in details.blocking (all
 * of them up to a page, so the error stays small on a guide of thousands of uncredited photos).
 */
export function notPublishable(gates: Gate[]): ApiError {
  const codes = [...new Set(gates.map((g) => g.code))].join(', ');
  const shown = gates.slice(0, FINDINGS_PAGE.default);
  const more =
    shown.length < gates.length
      ? `; details.blocking holds the first ${shown.length} of ${gates.length} gates, get_publish_status pages through them all.`
      : '; see details.blocking.';
  return new ApiError('not_publishable', `The guide cannot be published yet (${codes})${more}`, {
    details: { blocking: shown, blockingCount: gates.length },
  });
}

export interface PublishResult {
  published: boolean;
  release: ReleaseInfo;
  changes: KindChanges[];
}

/**
 * Writes a release of the working copy unless it equals the current one. The caller holds the
 * guide's lock (ctx.guide in a write, the studio's status update), so racing publishes queue: the
 * second sees the first's release and either adds the next number or finds nothing changed.
 */
export async function publishRelease(
  stores: Stores,
  guideId: string,
  creatorId: string,
  today: string,
  { keyId, needsLive }: GateOptions & { keyId: string | null },
): Promise<PublishResult> {
  const contents = await readGuideContents(stores, guideId, creatorId);
  const gates = blockingGates(contents, readinessOf(contents, today), { needsLive });
  if (gates.length > 0) throw notPublishable(gates);
  const working = serializeSnapshot(snapshotRows(contents));
  const current = await stores.releases.latestHashes(guideId);
  if (current && current.contentHash === working.hash) {
    const { rowHashes: _r, ...release } = current;
    return { published: false, release, changes: [] };
  }
  const changes = diffRowHashes(current?.rowHashes, working.rowHashes);
  const release = await stores.releases.insert(guideId, working, keyId, await captureImage(stores, guideId));
  return { published: true, release, changes };
}
