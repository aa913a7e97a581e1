// Rows of the areas resource; see src/db/tables.ts for how rows read in both dialects.

export interface AreasTable {
  id: string;
  guide_id: string;
  name: string;
  kind: string | null;
  note: string | null;
  season: string | null;
  rules: string;
  fees: string;
  links: string;
  status: string | null;
  sources: string;
  /** 1, 2, 3… in the order the guide's areas were made. */
  position: number;
  created_at: number;
  updated_at: number;
}
