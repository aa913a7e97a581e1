/**
 * One row per itinerary. Days are JSON (they are read and replaced whole); the columns the store
 * filters or orders on are real columns.
 */
export interface ItinerariesTable {
  id: string;
  guide_id: string;
  name: string;
  description: string | null;
  body: string | null;
  /** A photo of the guide; set to null when the photo is deleted. */
  cover_media_id: string | null;
  travel_mode: string | null;
  /** JSON ItinerarySeason, or null. */
  season: string | null;
  starts_at: string | null;
  ends_at: string | null;
  /** JSON array of ItineraryDay, as stored: no nulls inside. */
  days: string;
  order_key: number;
  /** 0 or 1. */
  archived: number;
  created_at: number;
  updated_at: number;
}
