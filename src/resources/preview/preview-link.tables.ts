/** A short-lived link to a guide's preview: only its token's hash is kept. */
export interface PreviewLinksTable {
  token_hash: string;
  guide_id: string;
  creator_id: string;
  created_at: number;
  expires_at: number;
}
