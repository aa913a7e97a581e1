/**
 * Routes and hikes share one table (one id space): a hike is a route with hike fields. The columns
 * the store filters or orders on are real columns; the rest of the record travels as JSON, the
 * stored line apart so lists can leave it out.
 */
export interface RoutesTable {
  id: string;
  guide_id: string;
  kind: 'route' | 'hike';
  /** Null only for a hike whose name was cleared. */
  name: string | null;
  record: string;
  /** The stored GeoJSON LineString, or null. */
  track: string | null;
  /** 1, 2, 3… in the order the guide's routes and hikes were made. */
  position: number;
  created_at: number;
  updated_at: number;
}

/** The spots along a route, in order. */
export interface RouteSpotsTable {
  route_id: string;
  spot_id: string;
  position: number;
}

/** The places on a route, with the creator's order key. */
export interface RouteFacilitiesTable {
  route_id: string;
  facility_id: string;
  order_key: number;
  /** Where it stood in the list sent, for equal order keys. */
  position: number;
}
