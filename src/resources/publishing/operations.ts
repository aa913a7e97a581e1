import { z } from 'zod';
import { defineOperation } from '../../core/operation.ts';
import { SINCE_2026_09_30 } from '../../core/versions.ts';
import { productIdSchema } from '../../shared/ids.ts';
import { datedRows } from './dated-rows.ts';
import { publishingExamples } from './examples.ts';
import { type DatedFacts, sortStaleFacts, staleFactsOf } from './staleness.ts';

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
    'Lists what ran out across spots, places, areas and routes: status notices past until, fees and hours past validUntil, ' +
    'timetables that ran out, events whose dates all passed, rows past reviewBy. With olderThanDays, also statuses, ' +
    'fees, hours and factsCheckedOn last checked longer ago than that. Oldest first.',
  input: z.strictObject({
    productId: productIdSchema,
    olderThanDays: z
      .number()
      .int()
      .min(0)
      .max(36_500)
      .optional()
      .describe('Also list facts last checked more than this many days ago'),
  }),
  output: z.object({ productId: z.string(), today: z.string(), count: z.number(), notices: z.array(staleFactSchema) }),
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const today = ctx.clock.today();
    const { stores } = ctx;
    const [spots, places, areas, routes] = await Promise.all([
      stores.spots.list(guide.id, { includeArchived: false }),
      stores.places.listForGuide(guide.id),
      stores.areas.listForGuide(guide.id),
      stores.routes.datedFacts(guide.id),
    ]);
    const rows: DatedFacts[] = [
      ...datedRows(spots, places, areas),
      ...routes.map((r) => ({ kind: 'route' as const, ...r })),
    ];
    const notices = sortStaleFacts(rows.flatMap((row) => staleFactsOf(row, today, input.olderThanDays)));
    return { productId: guide.id, today, count: notices.length, notices };
  },
});

export const publishingOperations = [listStaleNotices];
