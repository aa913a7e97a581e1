/** A short-lived link to a guide's preview: only its token's hash is kept. */
export interface PreviewLinksTable {
  id: string;
  token_hash: string;
  guide_id: string;
  creator_id: string;
  /** The API key's id or the assistant's grant id that made it: the link works while that credential does. */
  made_by: string;
  created_at: number;
  expires_at: number;
}
