import { z } from 'zod';
import { pageFields } from '../../core/guide-pages.ts';
import { defineOperation } from '../../core/operation.ts';
import { pageInputShape, pageOutputShape } from '../../core/paging.ts';
import { pageOfSortedList } from '../../core/paging-sorted.ts';
import { SINCE_2026_09_30 } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/id-fields.ts';
import { datedRows } from './dated-rows.ts';
import { publishingExamples } from './examples.ts';
import { type DatedFacts, sortStaleFacts, staleFactSortKey, staleFactsOf } from './staleness.ts';

export const staleFactSchema = z.object({
  kind: z.enum(['spot', 'place', 'area', 'route']),
  id: z.string(),
  name: z.string(),
  field: z
    .string()
    .describe(
      'reviewBy, status, fees[i], schedule, schedule.specialDays, transport.timetableValidUntil or factsCheckedOn',
    ),
  reason: z.enum(['review_due', 'ended', 'not_checked_recently']),
  date: z.string().describe('The date that makes it stale, YYYY-MM-DD'),
  detail: z.string().describe('What ran out and what to do about it'),
});

/** Notices a page holds: one is about 300 bytes. */
const NOTICE_PAGE = { default: 50, max: 500 };

export const listStaleNotices = defineOperation({
  name: 'list_stale_notices',
  title: 'List stale facts',
  method: 'GET',
  path: '/guides/{productId}/stale-notices',
  scope: 'read',
  stability: 'beta',
  since: SINCE_2026_09_30,
  example: publishingExamples.list_stale_notices,
  description:
    'What ran out in spots, places, areas and routes: statuses past until, fees, hours and timetables past their ' +
    'validity, events whose dates all passed, rows past reviewBy; with olderThanDays, also facts last checked ' +
    'longer ago. Oldest first, paged.',
  input: z.strictObject({
    productId: productIdSchema,
    olderThanDays: z
      .number()
      .int()
      .min(0)
      .max(36_500)
      .optional()
      .describe('Also list facts last checked more than this many days ago'),
    ...pageInputShape(NOTICE_PAGE),
  }),
  output: z.object({
    productId: z.string(),
    today: z.string(),
    count: z.number().describe('Notices in this answer'),
    notices: z.array(staleFactSchema),
    ...pageOutputShape,
  }),
  async handler(input, ctx) {
    const today = ctx.clock.today();
    const { stores } = ctx;
    // Built once per revision of the guide and day: paging through it reads the guide once.
    const view = `stale notices ${today} older=${input.olderThanDays ?? '*'}`;
    const stale = await stores.guides.cachedView(ctx.principal.creatorId, input.productId, view, async (guideId) => {
      const [spots, places, areas, routes] = await Promise.all([
        stores.spots.list(guideId, { includeArchived: false }),
        stores.facilities.listForGuide(guideId),
        stores.areas.listForGuide(guideId),
        stores.routes.datedFacts(guideId),
      ]);
      const rows: DatedFacts[] = [
        ...datedRows(spots, places, areas),
        ...routes.map((r) => ({ kind: 'route' as const, ...r })),
      ];
      return { guideId, notices: sortStaleFacts(rows.flatMap((row) => staleFactsOf(row, today, input.olderThanDays))) };
    });
    // By keyset, not position: an assistant renews facts while it reads, and a position would then
    // skip as many unread notices on the next page.
    const page = pageOfSortedList(stale.notices, input, NOTICE_PAGE, staleFactSortKey);
    return { productId: stale.guideId, today, count: page.items.length, notices: page.items, ...pageFields(page) };
  },
});

export const publishingOperations = [listStaleNotices];
