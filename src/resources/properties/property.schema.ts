import { z } from 'zod';
import { text } from '../../shared/text.ts';

export const propertyKinds = ['shortLabel', 'longSection', 'number', 'date', 'checkbox', 'singleSelect'] as const;
export type PropertyKind = (typeof propertyKinds)[number];

/** Kinds whose values come from a list of options. */
export const optionKinds: ReadonlySet<PropertyKind> = new Set(['checkbox', 'singleSelect']);
/** Kinds buyers can filter on. */
export const filterableKinds: ReadonlySet<PropertyKind> = new Set(['number', 'date', 'checkbox', 'singleSelect']);

/** The longest value a shortLabel holds: one line. */
export const SHORT_LABEL_MAX = 200;
export const LONG_SECTION_MAX = 10_000;

export const propertyKeySchema = z
  .string()
  .min(1)
  .max(40)
  .refine((s) => /^[a-z][a-z0-9_]*$/.test(s), {
    message: 'must be lowercase letters, digits and underscores, starting with a letter (e.g. "entry_fee")',
  })
  .describe(
    'Immutable key used in spot customValues: lowercase letters, digits and underscores, starting with a letter ' +
      '(entry_fee); derived from the label when omitted',
  );

export const optionIdSchema = z
  .string()
  .min(1)
  .max(40)
  .refine((s) => /^[a-z0-9][a-z0-9_-]*$/.test(s), {
    message: 'must be lowercase letters, digits, hyphens and underscores',
  });

export const optionInputSchema = z
  .strictObject({
    id: optionIdSchema
      .optional()
      .describe('Keep an existing option by its id; omit for a new option (derived from the label)'),
    label: text(80).min(1).describe('At most 80'),
  })
  .describe('An option of a checkbox or singleSelect property');

export const optionsInputSchema = z
  .array(optionInputSchema)
  .max(100)
  .describe('The live options in order, at most 100; existing options left out are archived, never deleted');

export const propertyOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  order: z.number(),
  archived: z.boolean(),
});

export type PropertyOption = z.infer<typeof propertyOptionSchema>;

export const propertySchema = z.object({
  propertyDefId: z.string(),
  key: z.string(),
  label: z.string(),
  kind: z.enum(propertyKinds),
  order: z.number(),
  required: z.boolean(),
  filterable: z.boolean(),
  placeholder: z.string().nullable(),
  numUnit: z.string().nullable(),
  options: z.array(propertyOptionSchema),
  archived: z.boolean(),
  schemaVersion: z.number(),
});

export type Property = z.infer<typeof propertySchema>;

/** A property in reorder_properties' compact answer: where it now stands. */
export const propertyPlaceSchema = propertySchema.pick({ propertyDefId: true, key: true, order: true });

export const propertyDefIdSchema = z.string().min(1).max(100).describe('From list_properties');
