/**
 * Row types of the store. Booleans are 0/1 integers and JSON is text in both dialects, so a row
 * reads back the same from SQLite and PostgreSQL; stores convert rows to records and never let
 * these types out.
 */
export interface CreatorsTable {
  id: string;
  email: string;
  slug: string;
  display_name: string;
  real_name: string | null;
  bio: string | null;
  avatar_url: string | null;
  socials: string;
  active: number;
  agreement_accepted: number;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: string;
  creator_id: string;
  secret_hash: string;
  hint: string;
  scope: 'read' | 'write';
  publish: number;
  role: 'owner' | 'editor';
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
  last_used_at: number | null;
}

export interface GuidesTable {
  id: string;
  creator_id: string;
  name: string;
  slug: string;
  headline: string | null;
  purchase_button_text: string | null;
  status: 'draft' | 'published' | 'archived';
  visible_on_store: number;
  store_review_status: 'pending' | 'approved' | 'rejected' | null;
  store_review_note: string | null;
  store_tags: string;
  country: string | null;
  reviews_shown: number;
  buyer_count_shown: number;
  one_time_enabled: number;
  subscription_included: number;
  pricing_currency: string;
  original_language: string;
  region: string | null;
  map_style: string | null;
  property_schema_version: number;
  thumbnail_media_id: string | null;
  thumbnail_url: string | null;
  created_at: number;
  updated_at: number;
  published_at: number | null;
  last_api_write_at: number | null;
  /** Bumped by every write to the guide or its contents. */
  revision: number;
}

export interface GuidePricesTable {
  id: string;
  guide_id: string;
  amount_minor: number;
  currency: string;
  created_at: number;
}

export interface PurchasesTable {
  id: string;
  guide_id: string;
  created_at: number;
}

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

export interface PropertyDefsTable {
  id: string;
  guide_id: string;
  key: string;
  label: string;
  kind: 'shortLabel' | 'longSection' | 'number' | 'date' | 'checkbox' | 'singleSelect';
  order_key: number;
  required: number;
  filterable: number;
  placeholder: string | null;
  num_unit: string | null;
  options: string;
  archived: number;
  schema_version: number;
  created_at: number;
  updated_at: number;
}

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

export interface Database {
  creators: CreatorsTable;
  api_keys: ApiKeysTable;
  guides: GuidesTable;
  guide_prices: GuidePricesTable;
  purchases: PurchasesTable;
  spots: SpotsTable;
  property_defs: PropertyDefsTable;
  areas: AreasTable;
  facilities: FacilitiesTable;
  facility_spots: FacilitySpotsTable;
}
