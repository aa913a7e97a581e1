/**
 * Row types of the store. Booleans are 0/1 integers and JSON is text in both dialects, so a row
 * reads back the same from SQLite and PostgreSQL; stores convert rows to records and never let
 * these types out. These are the core's tables (creators, keys, guides and what a guide is sold
 * with); each resource declares its own in its folder (`<entity>.tables.ts`) and merges them into
 * `Database` from its index.ts.
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
  /** What the creator calls the key in the studio; null for keys made before keys had names. */
  name: string | null;
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

export interface Database {
  creators: CreatorsTable;
  api_keys: ApiKeysTable;
  guides: GuidesTable;
  guide_prices: GuidePricesTable;
  purchases: PurchasesTable;
}
