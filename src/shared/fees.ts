import { z } from 'zod';
import { currencyCodeSchema } from './codes.ts';
import { dateSchema, orderedDates } from './dates.ts';
import { text } from './text.ts';
import { webUrlSchema } from './urls.ts';

/** One fee row. Information for buyers, shown with its as-of date; never charged by the service. */
export const feeSchema = z
  .strictObject({
    label: text(80).min(1).describe('What the fee is for, at most 80'),
    amount: z.number().min(0).max(1_000_000).optional().describe('Major units (40, 12.5); needs currency'),
    currency: currencyCodeSchema.optional().describe('ISO 4217; required with amount'),
    free: z.boolean().optional().describe('Free of charge; cannot be combined with an amount'),
    seeOfficial: z.boolean().optional().describe('Price deliberately left to the official page'),
    per: z.enum(['person', 'vehicle', 'night', 'group', 'entry', 'day', 'hour']).optional(),
    audience: z.enum(['all', 'adult', 'child', 'foreign', 'domestic', 'resident', 'student', 'senior']).optional(),
    paidWhere: z.enum(['online', 'on_site', 'in_tour']).optional(),
    payment: z.enum(['cash_only', 'card_only', 'cash_or_card']).optional(),
    note: text(300).optional(),
    validFrom: dateSchema.optional(),
    validUntil: dateSchema.optional(),
    sourceUrl: webUrlSchema.optional(),
    checkedOn: dateSchema.optional(),
  })
  .superRefine((fee, ctx) => {
    if (fee.amount !== undefined && fee.currency === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['currency'],
        input: undefined,
        message: 'is required with an amount (ISO 4217, e.g. "EUR")',
      });
    }
    if (fee.amount !== undefined && fee.free === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['free'],
        input: true,
        message: 'cannot be combined with an amount: drop one',
      });
    }
    if (fee.seeOfficial === true && (fee.amount !== undefined || fee.free === true)) {
      ctx.addIssue({
        code: 'custom',
        path: ['seeOfficial'],
        input: true,
        message: 'means the price is left to the official page: drop amount and free, or drop seeOfficial',
      });
    }
    orderedDates(ctx, fee, 'validFrom', 'validUntil');
  })
  .meta({
    id: 'Fee',
    description: 'Information for buyers, never charged: an amount with its currency, free, or seeOfficial',
  });

export const feesSchema = z.array(feeSchema).max(30).describe('At most 30 fees, full replacement');

export type Fee = z.infer<typeof feeSchema>;
