import { ApiError } from '../../core/errors.ts';
import type { Stores } from '../../core/stores.ts';
import { type GuideContents, readGuideContents } from './guide-contents.ts';
import { type Finding, readinessOf } from './readiness.ts';
import type { ReleaseInfo } from './releases.store.ts';
import { diffRowHashes, type KindChanges, serializeSnapshot, snapshotRows } from './snapshot.ts';

export interface Gate {
  code: string;
  message: string;
}

/** The open gates of a publish: a guide that is not live, then every blocking finding. */
export function blockingGates(c: GuideContents, findings: readonly Finding[], needsLive: boolean): Gate[] {
  const gates: Gate[] = [];
  if (needsLive && c.guide.status !== 'published') {
    gates.push({
      code: 'not_live',
      message: `The guide is ${c.guide.status}, not on sale: the creator puts it on sale in the studio, which publishes its first release.`,
    });
  }
  for (const f of findings) if (f.severity === 'blocking') gates.push({ code: f.code, message: f.message });
  return gates;
}

export function notPublishable(gates: Gate[]): ApiError {
  const list = gates.map((g) => g.code).join(', ');
  return new ApiError('not_publishable', `The guide cannot be published yet (${list}); see details.blocking.`, {
    details: { blocking: gates },
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
  keyId: string | null,
  needsLive: boolean,
): Promise<PublishResult> {
  const contents = await readGuideContents(stores, guideId, creatorId);
  const gates = blockingGates(contents, readinessOf(contents, today), needsLive);
  if (gates.length > 0) throw notPublishable(gates);
  const working = serializeSnapshot(snapshotRows(contents));
  const current = await stores.releases.latestHashes(guideId);
  if (current && current.contentHash === working.hash) {
    const { rowHashes: _r, ...release } = current;
    return { published: false, release, changes: [] };
  }
  const changes = diffRowHashes(current?.rowHashes, working.rowHashes);
  const release = await stores.releases.insert(guideId, working, keyId);
  return { published: true, release, changes };
}
