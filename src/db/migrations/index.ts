import type { Migration } from 'kysely/migration';
import * as foundation from './0001-foundation.ts';
import * as spotsProperties from './0002-spots-properties.ts';
import * as areasPlaces from './0003-areas-places.ts';
import * as guideRevision from './0004-guide-revision.ts';
import * as areaOrder from './0005-area-order.ts';
import * as paging from './0015-paging.ts';
import * as spotCounts from './0037-spot-counts.ts';

/**
 * The foundation's migrations; each resource brings its own (`Resource.migrations`), named to sort
 * after these. They run in the order of their names.
 */
export const foundationMigrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-spots-properties': spotsProperties,
  '0003-areas-places': areasPlaces,
  '0004-guide-revision': guideRevision,
  '0005-area-order': areaOrder,
  '0015-paging': paging,
  '0037-spot-counts': spotCounts,
};
