import { z } from 'zod';
import { text } from './text.ts';
import { webUrlSchema } from './urls.ts';

export const linkKinds = [
  'official',
  'website',
  'tickets',
  'booking',
  'status',
  'timetable',
  'tide',
  'listing',
  'social',
  'authority',
  'app',
  'other',
] as const;

/** A link a buyer may follow: a web address, or a channel that is not one (a phone number, an app). */
export const guideLinkSchema = z
  .strictObject({
    kind: z.enum(linkKinds).describe('What the link is for'),
    label: text(60).min(1).optional().describe('At most 60; without it the apps name the link by its kind'),
    url: webUrlSchema.optional(),
    value: text(200).min(1).optional().describe('A channel that is not a URL (phone, WhatsApp…), at most 200'),
    note: text(300).optional(),
  })
  .refine((link) => link.url !== undefined || link.value !== undefined, {
    message: 'needs a url or a value',
  })
  .meta({ id: 'GuideLink', description: 'A link buyers may follow: needs a url or a value' });

export const guideLinksSchema = z.array(guideLinkSchema).max(12).describe('At most 12 links, full replacement');

export type GuideLink = z.infer<typeof guideLinkSchema>;
