import { z } from 'zod';

/** Where the REST operations live, under the service's address. */
export const API_PREFIX = '/api/v1';
/** Where MCP clients connect. */
export const MCP_PATH = '/mcp';
/** The two photo uploads (REST only), under API_PREFIX. */
export const UPLOAD_PATH = '/media/upload';
export const UPLOAD_BATCH_PATH = '/media/upload-batch';

/** The addresses an assistant must use, whole: it cannot guess where the service runs. */
export const addressesSchema = z.object({
  api: z.string().describe('The REST base address ({base_url}): every operation path follows it'),
  mcp: z.string().describe('The MCP endpoint'),
  upload: z.string().describe('POST one photo here (upload_media, REST only)'),
  uploadBatch: z.string().describe('POST up to 10 photos here (upload_media_batch, REST only)'),
});

export type Addresses = z.infer<typeof addressesSchema>;

/** The addresses under the service's public address (PUBLIC_URL, else the one it listens on). */
export function addressesOf(publicUrl: string): Addresses {
  const api = `${publicUrl}${API_PREFIX}`;
  return {
    api,
    mcp: `${publicUrl}${MCP_PATH}`,
    upload: `${api}${UPLOAD_PATH}`,
    uploadBatch: `${api}${UPLOAD_BATCH_PATH}`,
  };
}
