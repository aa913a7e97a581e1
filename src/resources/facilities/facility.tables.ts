// Rows of the facilities resource; see src/db/tables.ts for how rows read in both dialects.

/** A place: the columns the store filters or joins on, and the rest of the record as JSON. */
export interface FacilitiesTable {
  id: string;
  guide_id: string;
  kind: string;
  type: string | null;
  name: string;
  record: string;
  lat: number | null;
  lon: number | null;
  inside_id: string | null;
  /** The name as people sort it (nameSortKey), which list_facilities pages by. */
  name_key: string;
  created_at: number;
  updated_at: number;
}

export interface FacilitySpotsTable {
  facility_id: string;
  spot_id: string;
  position: number;
}
