import { z } from 'zod';
import { monthsSchema } from '../../shared/dates.ts';
import { feesSchema } from '../../shared/fees.ts';
import { guideLinksSchema } from '../../shared/links.ts';
import { sourcesSchema } from '../../shared/sources.ts';
import { statusNoticeSchema } from '../../shared/status.ts';
import { nameText, text } from '../../shared/text.ts';
import { webUrlSchema } from '../../shared/urls.ts';

export const AREAS_PER_GUIDE = 50;

export const areaKinds = ['park', 'reserve', 'island', 'region', 'city', 'other'] as const;

export const accessRuleSchema = z
  .strictObject({
    text: text(300).min(1).describe('The rule as buyers read it, at most 300'),
    kind: z
      .enum(['reservation', 'permit', 'guide', 'registration', 'no_independent_travel', 'vehicle', 'other'])
      .optional(),
    months: monthsSchema.optional().describe('1 to 12: the apps show the rule only then; absent means all year'),
    appliesTo: z.enum(['car', 'all']).optional().describe('car binds drivers only'),
    bookingOpens: text(100).min(1).optional().describe('When booking opens, in words, at most 100'),
    sourceUrl: webUrlSchema.optional(),
  })
  .describe('AccessRule');

export const areaIdSchema = z.string().min(1).max(100).describe('The area id from set_area or list_areas');

/** The fields set_area takes; left out means cleared when an area is replaced. */
export const areaFieldsSchema = z.object({
  name: nameText(100).describe('Required, at most 100'),
  kind: z.enum(areaKinds).optional().describe('Absent reads as other'),
  note: text(1000).optional().describe('At most 1,000'),
  season: text(300).optional().describe('At most 300'),
  rules: z.array(accessRuleSchema).max(20).optional().describe('At most 20; [] clears'),
  fees: feesSchema.optional(),
  links: guideLinksSchema.optional(),
  sources: sourcesSchema.optional(),
  status: statusNoticeSchema
    .optional()
    .describe('Closure or works notice for the whole area; null is not accepted: leave it out to clear'),
});

export type AreaFields = z.infer<typeof areaFieldsSchema>;

export const areaSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(areaKinds).optional(),
  note: z.string().optional(),
  season: z.string().optional(),
  rules: z.array(accessRuleSchema),
  fees: feesSchema,
  links: guideLinksSchema,
  status: statusNoticeSchema.optional(),
  sources: sourcesSchema,
});

export type Area = z.infer<typeof areaSchema>;

/** Spot keys an area's answer lists: the rest are read with list_spots areaId. */
export const AREA_SPOT_KEYS_SHOWN = 200;

export const areaWithSpotsSchema = areaSchema.extend({
  spotKeys: z
    .array(z.string())
    .describe(
      `Keys of the spots pointing at this area, the first ${AREA_SPOT_KEYS_SHOWN} (list_spots areaId reads all)`,
    ),
  spotCount: z.number().describe('How many spots point at this area'),
});

export type AreaWithSpots = z.infer<typeof areaWithSpotsSchema>;

/** An area in set_area's compact answer: its id to point spots at, and how many do. */
export const compactAreaSchema = areaWithSpotsSchema.pick({ id: true, name: true, spotCount: true });

export type CompactArea = z.infer<typeof compactAreaSchema>;
