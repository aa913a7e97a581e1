import { z } from 'zod';
import { dateSchema } from './dates.ts';
import { text } from './text.ts';
import { webUrlSchema } from './urls.ts';

/** Research evidence for reviewers, never shown to buyers. */
export const sourceRefSchema = z
  .strictObject({
    url: webUrlSchema.optional(),
    title: text(200).min(1).optional().describe('For a source without URL, at most 200'),
    kind: z.enum(['page', 'api', 'archive', 'document', 'other']).optional(),
    capturedOn: dateSchema.optional(),
    note: text(500).optional(),
    supports: z.array(text(60).min(1)).max(12).optional().describe('Which facts it backs'),
    conflict: z.boolean().optional().describe('Disagrees with another source on those facts'),
  })
  .refine((source) => source.url !== undefined || source.title !== undefined, { message: 'needs a url or a title' })
  .meta({
    id: 'SourceRef',
    description: 'Research evidence for reviewers, never shown to buyers; needs a url or a title',
  });

export const sourcesSchema = z.array(sourceRefSchema).max(40).describe('At most 40 sources, full replacement');

export type SourceRef = z.infer<typeof sourceRefSchema>;
