import { z } from 'zod';
import { idSchema } from '../../shared/id-fields.ts';

export const changeIdSchema = idSchema('From list_changes');

/** One change as list_changes answers it: small, no record bodies. */
export const changeSchema = z.object({
  changeId: z.string(),
  at: z.number(),
  operation: z.string(),
  by: z.object({
    kind: z.enum(['key', 'assistant', 'studio']),
    name: z.string(),
  }),
  records: z
    .array(z.object({ kind: z.string().describe('spot, chapter, route, photo, guide…'), id: z.string() }))
    .describe('The records it touched, the first 10'),
  recordCount: z.number().int().describe('How many records it touched in all'),
  summary: z.string().describe('What it did, such as "changed spot ×2, created chapter"'),
  undoable: z.boolean().describe('false when it deleted a record (deleting is permanent) or when it is undone already'),
  undoneBy: z.string().optional().describe('The change that undid it, while that undo stands'),
});

export type Change = z.infer<typeof changeSchema>;
