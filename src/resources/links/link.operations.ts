import { z } from 'zod';
import { ApiError, refuse } from '../../core/errors.ts';
import { pageFields } from '../../core/guide-pages.ts';
import { defineOperation } from '../../core/operation.ts';
import { pageInputShape, pageOfList, pageOutputShape } from '../../core/paging.ts';
import { STABLE_SINCE } from '../../core/versions.ts';
import { answerField, answersFull } from '../../core/write-answer.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { linksExamples } from './examples.ts';
import { heldLinks } from './held-links.ts';
import type { LinkCheckResult } from './link-checker.ts';
import {
  countByState,
  type LinkEntry,
  linkCountsSchema,
  linkEntrySchema,
  linkReport,
  linkStatuses,
  linkUseSchema,
  stateOf,
} from './link-report.ts';

/**
 * URLs one check_links call fetches at most. With 4 at once and the checker's 40 s budget for
 * starting new ones, a call answers within about a minute; the rest wait for the next call.
 */
export const MAX_CHECKS_PER_CALL = 200;

/** What a check_links call that finds one of the same guide running is told to wait. */
const CHECK_RUNNING_WAIT_MS = 30_000;

const NOT_HELD = 'the guide holds no such link; get_link_report lists the links it holds.';

const urlSchema = z.string().max(2000).describe('A link exactly as the guide holds it (get_link_report lists them)');

/** Links a page holds: a link with a few uses is about 400 bytes. */
const LINK_PAGE = { default: 50, max: 500 };

export const getLinkReport = defineOperation({
  name: 'get_link_report',
  title: 'Report the guide’s links',
  method: 'GET',
  path: '/guides/{productId}/links',
  scope: 'read',
  stability: 'stable',
  since: STABLE_SINCE,
  example: linksExamples.get_link_report,
  description:
    'Lists every web link the guide holds (links, websites, booking, timetable and source URLs, map links) on spots, ' +
    'areas, places, routes, hikes and chapters, each once with every place it is used, ' +
    'its last check_links result and whether a person marked it verified. Guide order, a page at a time (see ' +
    'Paging). Filter with status.',
  input: z.strictObject({
    productId: productIdSchema,
    status: z
      .enum([...linkStatuses, 'unchecked'])
      .optional()
      .describe('Only links whose last check ended so (unchecked: never checked)'),
    ...pageInputShape(LINK_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    counts: linkCountsSchema.describe('Over all links, whatever the filter'),
    count: z.number().describe('Links in this answer'),
    links: z.array(linkEntrySchema),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    // Built once per revision of the guide (check_links and set_link_verified move it too): paging
    // through the report reads the guide once, not once a page.
    const report = await ctx.stores.guides.cachedView(
      ctx.principal.creatorId,
      input.productId,
      'link report',
      async (guideId) => {
        const all = await linkReport(ctx.stores, { id: guideId, creatorId: ctx.principal.creatorId });
        return { guideId, all, counts: countByState(all.map(stateOf)) };
      },
    );
    const matching =
      input.status === undefined ? report.all : report.all.filter((entry) => stateOf(entry) === input.status);
    const page = pageOfList(matching, input, LINK_PAGE);
    return {
      productId: report.guideId,
      counts: report.counts,
      count: page.items.length,
      links: page.items,
      ...pageFields(page),
    };
  },
});

interface CheckRun {
  uses: Map<string, LinkEntry['uses']>;
  results: LinkCheckResult[];
  notChecked: number;
}

/** Never-checked links first, then the longest unchecked; guide order among equals. */
function stalestFirst(entries: readonly LinkEntry[]): LinkEntry[] {
  const age = (entry: LinkEntry) => entry.lastCheck?.checkedAt ?? Number.NEGATIVE_INFINITY;
  return entries.toSorted((a, b) => age(a) - age(b));
}

export const checkLinks = defineOperation({
  name: 'check_links',
  title: 'Check the guide’s links',
  method: 'POST',
  path: '/guides/{productId}/links/check',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: linksExamples.check_links,
  description:
    `Opens the guide's links from this server and stores what each answered (get_link_report shows it). Without urls ` +
    `it checks up to ${MAX_CHECKS_PER_CALL}, never-checked and longest-unchecked first; notChecked says how many wait ` +
    'for a later call. Limited per guide per hour, one at a time: check before publishing or after many link edits, ' +
    'not after each. ' +
    'problems lists every link not ok: redirected (replace it with finalUrl), broken (fix or remove it with the ' +
    'creator), blocked (an address this server never opens), error (no answer: check again later).',
  annotations: { openWorld: true },
  input: z.strictObject({
    productId: productIdSchema,
    urls: z.array(urlSchema).min(1).max(MAX_CHECKS_PER_CALL).optional().describe('Only these links of the guide'),
  }),
  output: z.object({
    productId: z.string(),
    checked: z.number(),
    counts: linkCountsSchema.omit({ unchecked: true }),
    problems: z.array(
      z.object({
        url: z.string(),
        status: z.enum(linkStatuses),
        httpStatus: z.number().nullable(),
        finalUrl: z.string(),
        error: z.string().nullable(),
        uses: z.array(linkUseSchema),
      }),
    ),
    notChecked: z.number(),
  }),
  rateLimit: { policy: 'link-checks', key: (input, principal) => `${principal.creatorId}:${input.productId}` },
  // Two checks of one guide at once would fetch every site twice and could store the older
  // results last: one runs, on whichever instance; the other is told to wait for it.
  exclusive: {
    job: (input, principal) => `${principal.creatorId} ${input.productId}`,
    running:
      'A link check of this guide is running now (another call started it); its results show in get_link_report ' +
      `when it ends. Wait ${CHECK_RUNNING_WAIT_MS / 1000} s before checking again.`,
    retryAfterMs: CHECK_RUNNING_WAIT_MS,
  },
  // The fetching runs here, outside any transaction; the handler stores the results in a short one.
  async prepare(input, ctx): Promise<CheckRun> {
    const guide = await ctx.guide(input.productId);
    const report = await linkReport(ctx.stores, guide);
    const uses = new Map(report.map((entry) => [entry.url, entry.uses]));
    let urls: string[];
    if (input.urls) {
      input.urls.forEach((url, i) => {
        if (!uses.has(url)) {
          throw refuse(`urls[${i}]`, NOT_HELD);
        }
      });
      urls = [...new Set(input.urls)];
    } else {
      urls = stalestFirst(report)
        .slice(0, MAX_CHECKS_PER_CALL)
        .map((entry) => entry.url);
    }
    const results = await ctx.services.linkChecker.checkAll(urls);
    const asked = input.urls ? urls.length : report.length;
    return { uses, results, notChecked: asked - results.length };
  },
  async handler(input, ctx, run) {
    const guide = await ctx.guide(input.productId);
    const { links } = ctx.stores;
    await links.saveChecks(guide.id, run.results);
    await links.keepOnly(guide.id, new Set(run.uses.keys()));
    const { unchecked: _, ...counts } = countByState(run.results.map((r) => r.status));
    const problems = run.results
      .filter((r) => r.status !== 'ok')
      .map(({ url, status, httpStatus, finalUrl, error }) => ({
        url,
        status,
        httpStatus,
        finalUrl,
        error,
        uses: run.uses.get(url) ?? [],
      }));
    return { productId: guide.id, checked: run.results.length, counts, problems, notChecked: run.notChecked };
  },
});

/** Links one set_link_verified call marks at most, as many as one check_links call checks. */
export const MAX_MARKS_PER_CALL = MAX_CHECKS_PER_CALL;

export const setLinkVerified = defineOperation({
  name: 'set_link_verified',
  title: 'Mark links verified',
  method: 'PUT',
  path: '/guides/{productId}/links/verified',
  scope: 'write',
  stability: 'stable',
  since: STABLE_SINCE,
  example: linksExamples.set_link_verified,
  description:
    'Marks links a person opened and found right (verified true), or takes the mark back (false): one url, or up ' +
    `to ${MAX_MARKS_PER_CALL} as urls. For links the checker cannot judge. A verified link no longer counts as ` +
    'broken; the mark covers every use of the URL and stays until taken back, whatever checks find.',
  input: z.strictObject({
    productId: productIdSchema,
    url: urlSchema.optional().describe('One link exactly as the guide holds it; or send urls'),
    urls: z
      .array(urlSchema)
      .min(1)
      .max(MAX_MARKS_PER_CALL)
      .optional()
      .describe(
        `Several links of the guide (at most ${MAX_MARKS_PER_CALL}), each as the guide holds it; instead of url`,
      ),
    verified: z.boolean(),
    answer: answerField,
  }),
  output: z.object({
    ok: z.literal(true),
    productId: z.string(),
    url: z.string().optional().describe('The link marked, when url was sent'),
    marked: z.number().describe('Links marked, each counted once'),
    urls: z.array(z.string()).optional().describe('With answer full, when urls was sent: the links marked, each once'),
    verified: z.boolean(),
    verifiedAt: z.number().nullable(),
  }),
  async handler(input, ctx) {
    if (input.url !== undefined && input.urls !== undefined) {
      throw refuse('urls', 'send one link as url or several as urls, not both.');
    }
    if (input.url === undefined && input.urls === undefined) {
      throw new ApiError('invalid_argument', 'url: is required (or urls, a list of several links)');
    }
    const guide = await ctx.guide(input.productId);
    const held = new Set((await heldLinks(ctx.stores, guide)).map((link) => link.url));
    const sent = input.urls ?? [input.url as string];
    sent.forEach((url, i) => {
      if (!held.has(url)) throw refuse(input.urls ? `urls[${i}]` : 'url', NOT_HELD);
    });
    const urls = [...new Set(sent)];
    const verifiedAt = input.verified ? ctx.clock.now() : null;
    await ctx.stores.links.setVerified(guide.id, urls, verifiedAt);
    return {
      ok: true as const,
      productId: guide.id,
      ...(input.urls ? answersFull(input) && { urls } : { url: input.url }),
      marked: urls.length,
      verified: input.verified,
      verifiedAt,
    };
  },
});

export const linkOperations = [getLinkReport, checkLinks, setLinkVerified];
