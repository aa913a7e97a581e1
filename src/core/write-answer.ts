import { z } from 'zod';

/**
 * What a bulk write answers. A write that takes or touches a whole collection (25 spots, 2,500
 * members, 60 days of stops) used to echo every record it wrote: 14-15 KB for 20 spots, most of it
 * what the assistant had just sent. By default it answers compact: the ids and keys it minted, the
 * counts, what was created, updated or left unchanged, and the warnings; `answer: "full"` answers
 * the records as a read returns them. docs/decisions/transports.md ("Compact write answers").
 *
 * Its own name rather than the lists' `view`: a list answers full unless asked, a bulk write
 * compact unless asked, and one word with two defaults would mislead.
 */
export const answerField = z
  .enum(['compact', 'full'])
  .optional()
  .describe('compact (default): ids, keys and counts; full: the records written, as a read returns them');

export type AnswerForm = z.infer<typeof answerField>;

/** Whether the caller asked for the records whole. */
export function answersFull(input: { answer?: AnswerForm }): boolean {
  return input.answer === 'full';
}
