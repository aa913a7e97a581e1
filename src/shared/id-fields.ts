import { z } from 'zod';

/** An id this service minted: opaque, URL-safe, never longer than 100 characters. */
export function idSchema(description: string) {
  return z.string().min(1).max(100).describe(description);
}

export const productIdSchema = idSchema('From list_guides');
