import { z } from 'zod';
import { dateSchema, orderedDates } from './dates.ts';
import { text } from './text.ts';
import { webUrlSchema } from './urls.ts';

export const statusStates = ['open', 'partly_closed', 'closed', 'reopening'] as const;

/** A closure or works notice; buyers stop seeing it after `until`. */
export const statusNoticeSchema = z
  .strictObject({
    state: z.enum(statusStates).describe('reopening with until means it reopens on that day'),
    note: text(500).optional(),
    since: dateSchema.optional(),
    until: dateSchema.optional().describe('Not before since'),
    sourceUrl: webUrlSchema.optional(),
    checkedOn: dateSchema.optional(),
  })
  .superRefine((status, ctx) => orderedDates(ctx, status, 'since', 'until'))
  .meta({ id: 'StatusNotice', description: 'A closure or works notice; buyers stop seeing it after until' });

export type StatusNotice = z.infer<typeof statusNoticeSchema>;
