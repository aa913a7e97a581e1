/**
 * What the guide's links last answered and whether a person vouched for them: one row per guide
 * and URL, written by check_links and set_link_verified. Which links a guide holds is read from its
 * records each time; a row for a URL the guide no longer holds is ignored, and dropped by the
 * guide's next check.
 */
export interface LinkChecksTable {
  guide_id: string;
  /** SHA-256 of the URL (base64url): URLs run to 2,000 characters, too long for an index key. */
  url_key: string;
  url: string;
  /** ok, redirected, broken, blocked or error; null while only a person's mark is stored. */
  status: string | null;
  http_status: number | null;
  final_url: string | null;
  error: string | null;
  checked_at: number | null;
  /** When a person marked it verified; null when not marked. */
  verified_at: number | null;
}
