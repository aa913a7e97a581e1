/** A file uploaded for import_spots, kept for a short time, then swept. */
export interface ImportUploadsTable {
  id: string;
  guide_id: string;
  filename: string | null;
  /** The file's size in bytes, as uploaded. */
  byte_size: number;
  /** The file's bytes, base64: one column type that both stores read back alike. */
  content: string;
  expires_at: number;
  created_at: number;
}
