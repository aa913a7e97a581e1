import { z } from 'zod';

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** True when the day exists on the calendar (2026-02-30 does not). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && !isLeap(year) ? 28 : (DAYS_IN_MONTH[month - 1] as number));
}

/** A real calendar date, YYYY-MM-DD. */
export const dateSchema = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s), { message: 'must be a date written YYYY-MM-DD', abort: true })
  .refine(isCalendarDate, { message: 'is not a day on the calendar' })
  .meta({ id: 'Date', description: 'YYYY-MM-DD' });

/** A day of any year, MM-DD; 02-29 is allowed (leap years have it). */
export const monthDaySchema = z
  .string()
  .refine((s) => /^\d{2}-\d{2}$/.test(s), { message: 'must be a day of the year written MM-DD', abort: true })
  .refine((s) => isCalendarDate(`2024-${s}`), { message: 'is not a day of the year' })
  .meta({ id: 'MonthDay', description: 'MM-DD' });

/** A time of day, HH:MM on the 24-hour clock. */
export const timeOfDaySchema = z
  .string()
  .refine((s) => /^([01]\d|2[0-3]):[0-5]\d$/.test(s), {
    message: 'must be a time of day written HH:MM (00:00 to 23:59)',
  })
  .meta({ id: 'TimeOfDay', description: 'HH:MM, 24-hour clock' });

/** A time of day or a sun anchor. */
export const clockOrSunSchema = z
  .string()
  .refine((s) => s === 'sunrise' || s === 'sunset' || /^([01]\d|2[0-3]):[0-5]\d$/.test(s), {
    message: 'must be HH:MM (00:00 to 23:59), "sunrise" or "sunset"',
  })
  .meta({ id: 'ClockOrSun', description: 'HH:MM, "sunrise" or "sunset"' });

/**
 * A set of calendar numbers written as a list: a repeat says nothing more, so it is dropped and the
 * first occurrences keep their order (as store tags are).
 */
function distinctNumbers(max: number) {
  return z
    .array(z.number().int().min(1).max(max))
    .max(max)
    .transform((values) => [...new Set(values)]);
}

export const monthsSchema = distinctNumbers(12).describe('1 (January) to 12 (December); absent means all year');

export const weekdaysSchema = distinctNumbers(7).describe('1 (Monday) to 7 (Sunday); absent means every day');

/** Minutes since midnight of an HH:MM time. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** Adds a refusal when `later` comes before `earlier`: both are YYYY-MM-DD, so text order is date order. */
export function orderedDates(
  ctx: z.RefinementCtx,
  value: Record<string, unknown>,
  earlierKey: string,
  laterKey: string,
): void {
  const earlier = value[earlierKey];
  const later = value[laterKey];
  if (typeof earlier === 'string' && typeof later === 'string' && later < earlier) {
    ctx.addIssue({
      code: 'custom',
      path: [laterKey],
      input: later,
      message: `must not be before ${earlierKey} (${earlier})`,
    });
  }
}
