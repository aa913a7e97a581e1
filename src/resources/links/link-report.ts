import { z } from 'zod';
import type { GuideRef } from '../../core/guide-contents.ts';
import type { Stores } from '../../core/stores.ts';
import { type HeldLink, LINK_HOLDER_PARTS, type LinkHolderKind, linksHeldBy } from './held-links.ts';
import type { LinkRecord } from './link.store.ts';
import type { LinkStatus } from './link-checker.ts';

export const linkStatuses = ['ok', 'redirected', 'broken', 'blocked', 'error'] as const satisfies readonly LinkStatus[];

const holderKinds = [
  'spot',
  'area',
  'place',
  'route',
  'hike',
  'chapter',
  'photo',
] as const satisfies readonly LinkHolderKind[];

export const linkUseSchema = z.object({
  kind: z.enum(holderKinds),
  id: z.string(),
  name: z.string().nullable(),
  field: z.string().describe('Path inside the record, e.g. fees[2].sourceUrl'),
});

const lastCheckSchema = z.object({
  status: z
    .enum(linkStatuses)
    .describe(
      'ok; redirected (works, moved to finalUrl); broken (4xx/5xx, unknown name, bad redirects); ' +
        'blocked (never fetched: private address, bad scheme or port); error (no answer this time)',
    ),
  httpStatus: z.number().nullable(),
  finalUrl: z.string().nullable().describe('Where the check ended, after redirects'),
  checkedAt: z.number(),
  error: z.string().nullable(),
});

export const linkEntrySchema = z.object({
  url: z.string(),
  uses: z.array(linkUseSchema),
  lastCheck: lastCheckSchema.nullable().describe('null: never checked'),
  verified: z.boolean().describe('A person opened it and vouched for it (set_link_verified)'),
  verifiedAt: z.number().nullable(),
});

export type LinkEntry = z.infer<typeof linkEntrySchema>;

/** A count per check status, and the links never checked. */
export const linkCountsSchema = z.object({
  ok: z.number(),
  redirected: z.number(),
  broken: z.number(),
  blocked: z.number(),
  error: z.number(),
  unchecked: z.number(),
});

export type LinkCounts = z.infer<typeof linkCountsSchema>;

export function linkEntry(link: HeldLink, stored: LinkRecord | undefined): LinkEntry {
  const verifiedAt = stored?.verifiedAt ?? null;
  return {
    url: link.url,
    uses: link.uses,
    lastCheck: stored?.lastCheck ?? null,
    verified: verifiedAt !== null,
    verifiedAt,
  };
}

/** A link's last status, or unchecked. */
export type LinkState = keyof LinkCounts;

export const stateOf = (entry: LinkEntry): LinkState => entry.lastCheck?.status ?? 'unchecked';

export function countByState(states: Iterable<LinkState>): LinkCounts {
  const counts: LinkCounts = { ok: 0, redirected: 0, broken: 0, blocked: 0, error: 0, unchecked: 0 };
  for (const state of states) counts[state]++;
  return counts;
}

/** Every link the guide holds, with its last check and verified mark, in guide order. */
export async function linkReport(stores: Stores, guide: GuideRef): Promise<LinkEntry[]> {
  const { linkRecords, ...holders } = await stores.guideContents.read(guide, [...LINK_HOLDER_PARTS, 'linkRecords']);
  return linksHeldBy(holders).map((link) => linkEntry(link, linkRecords.get(link.url)));
}
