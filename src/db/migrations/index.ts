import type { Migration, MigrationProvider } from 'kysely/migration';
import * as foundation from './0001-foundation.ts';
import * as spotsProperties from './0002-spots-properties.ts';
import * as areasPlaces from './0003-areas-places.ts';
import * as guideRevision from './0004-guide-revision.ts';
import * as areaOrder from './0005-area-order.ts';

/** Migrations in the order they run; names sort in that order too. */
const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-spots-properties': spotsProperties,
  '0003-areas-places': areasPlaces,
  '0004-guide-revision': guideRevision,
  '0005-area-order': areaOrder,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
