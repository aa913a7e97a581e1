import type { Resource } from '../../core/resource.ts';
import { buyersPage } from './buyers-page.ts';
import { salesPageOperations } from './operations.ts';
import { up } from './sales-page.migration.ts';
import { SalesPageStore } from './sales-page.store.ts';
import type { SalesPagesTable } from './sales-page.tables.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    salesPage: SalesPageStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    sales_pages: SalesPagesTable;
  }
}

export const salesPageResource: Resource = {
  tag: { name: 'sales-page', description: 'The sales page buyers see: its draft and what it shows' },
  operations: salesPageOperations,
  stores: { salesPage: (scope) => new SalesPageStore(scope) },
  migrations: { '0012-sales-page': { up } },
  publicPages: [buyersPage],
};

/** The map the buyers' page draws, for any page that shows the same map (the studio's preview). */
export { drawMap, type MapOptions, type MapPoint, type Region } from './page-map.ts';
export {
  type SalesPageContent,
  type SalesPageDraft,
  salesPageContentSchema,
} from './sales-page.schema.ts';
/** The publish step snapshots `ctx.stores.salesPage.draftOf(guideId)` into a release. */
export type { SalesPageStore } from './sales-page.store.ts';
