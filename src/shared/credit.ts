import { text } from './text.ts';
import { webUrlSchema } from './urls.ts';

/**
 * A photo's credit, as photos and chapter covers both carry it: shared here rather than imported
 * from media, which chapters' schemas must not load (media's index reaches chapters again).
 */
export const creditFields = {
  credit: text(200).optional(),
  creditUrl: webUrlSchema.nullable().optional(),
  licence: text(200).nullable().optional(),
};
