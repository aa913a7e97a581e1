// Rows of the spots resource; see src/db/tables.ts for how rows read in both dialects.

export interface SpotsTable {
  id: string;
  guide_id: string;
  spot_key: string;
  name: string;
  description: string | null;
  lat: number | null;
  lon: number | null;
  time_zone: string | null;
  pins: string;
  map_links: string;
  links: string;
  status: string | null;
  fees: string;
  schedule: string | null;
  hours: string | null;
  sources: string;
  area_id: string | null;
  archived: number;
  custom_values: string;
  custom_notes: string;
  review_notes: string | null;
  facts_checked_on: string | null;
  review_by: string | null;
  order_key: number;
  created_at: number;
  updated_at: number;
}
