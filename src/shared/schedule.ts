import { z } from 'zod';
import {
  clockOrSunSchema,
  dateSchema,
  minutesOf,
  monthDaySchema,
  orderedDates,
  timeOfDaySchema,
  weekdaysSchema,
} from './dates.ts';
import { text } from './text.ts';
import { webUrlSchema } from './urls.ts';

const offsetSchema = z.number().int().min(-240).max(240).describe('Minutes around a sun anchor, -240 to 240');

const isSun = (t: string | undefined) => t === 'sunrise' || t === 'sunset';

/** Open and close on a band or a special day: both when not closed, neither when closed. */
function checkOpening(
  ctx: z.RefinementCtx,
  value: { closed?: boolean | undefined; open?: string | undefined; close?: string | undefined },
): void {
  if (value.closed === true) {
    for (const key of ['open', 'close'] as const) {
      if (value[key] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          input: value[key],
          message: 'must be left out when closed is true',
        });
      }
    }
    return;
  }
  for (const key of ['open', 'close'] as const) {
    if (value[key] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        input: undefined,
        message: 'is required unless closed is true (HH:MM, sunrise or sunset)',
      });
    }
  }
}

export const hoursBandSchema = z
  .strictObject({
    from: monthDaySchema.optional().describe('MM-DD; absent means start of year'),
    to: monthDaySchema.optional().describe('MM-DD; may wrap over the new year; absent means end of year'),
    weekdays: weekdaysSchema.optional(),
    closed: z.boolean().optional().describe('When not true, open and close are required'),
    open: clockOrSunSchema.optional(),
    close: clockOrSunSchema.optional(),
    openOffsetMin: offsetSchema.optional(),
    closeOffsetMin: offsetSchema.optional(),
    lastEntry: timeOfDaySchema.optional(),
    leaveBy: timeOfDaySchema.optional(),
    note: text(200).optional(),
  })
  .superRefine((band, ctx) => {
    checkOpening(ctx, band);
    if (band.openOffsetMin !== undefined && !isSun(band.open)) {
      ctx.addIssue({
        code: 'custom',
        path: ['openOffsetMin'],
        input: band.openOffsetMin,
        message: 'applies only when open is sunrise or sunset',
      });
    }
    if (band.closeOffsetMin !== undefined && !isSun(band.close)) {
      ctx.addIssue({
        code: 'custom',
        path: ['closeOffsetMin'],
        input: band.closeOffsetMin,
        message: 'applies only when close is sunrise or sunset',
      });
    }
  })
  .meta({ id: 'HoursBand', description: 'Opening hours for a part of the year; the last matching band wins' });

export const specialDaySchema = z
  .strictObject({
    date: dateSchema.optional(),
    rule: text(120).min(1).optional().describe('In words, e.g. "Easter Monday", at most 120'),
    closed: z.boolean().optional(),
    open: clockOrSunSchema.optional(),
    close: clockOrSunSchema.optional(),
    note: text(200).optional(),
  })
  .superRefine((day, ctx) => {
    if ((day.date === undefined) === (day.rule === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], input: day, message: 'needs either a date or a rule (one of them)' });
    }
    checkOpening(ctx, day);
  })
  .meta({ id: 'SpecialDay', description: 'A special day: a date or a rule' });

export const slotsSchema = z
  .strictObject({
    first: timeOfDaySchema.describe('First entry, HH:MM'),
    last: timeOfDaySchema.describe('Last entry, HH:MM'),
    everyMin: z.number().int().min(1).max(1440).describe('Minutes between entries'),
    cap: z.number().int().min(1).max(100_000).optional().describe('Visitors per slot, 1 to 100,000'),
    note: text(200).optional(),
  })
  .superRefine((slots, ctx) => {
    if (minutesOf(slots.last) < minutesOf(slots.first)) {
      ctx.addIssue({
        code: 'custom',
        path: ['last'],
        input: slots.last,
        message: `must not be before first (${slots.first})`,
      });
    }
  })
  .meta({ id: 'TimedEntry', description: 'Timed entry slots' });

/** Structured opening hours; the free-text hours remain the fallback. */
export const scheduleSchema = z
  .strictObject({
    hours: z.array(hoursBandSchema).max(24).optional().describe('At most 24 bands: year-round first, exceptions after'),
    specialDays: z.array(specialDaySchema).max(40).optional(),
    slots: slotsSchema.optional(),
    validFrom: dateSchema.optional(),
    validUntil: dateSchema.optional(),
    sourceUrl: webUrlSchema.optional(),
    checkedOn: dateSchema.optional(),
    note: text(500).optional(),
  })
  .superRefine((schedule, ctx) => orderedDates(ctx, schedule, 'validFrom', 'validUntil'))
  .meta({ id: 'Schedule', description: 'Structured opening hours' });

export type Schedule = z.infer<typeof scheduleSchema>;
