import type { LRUCache } from 'lru-cache';
import type { PublicPage, Resource } from '../../core/resource.ts';
import { buyersPage, renderedPages } from './buyers-page.ts';
import { takenOutOfDraft } from './sales-page.input.ts';
import { up } from './sales-page.migration.ts';
import { salesPageOperations } from './sales-page.operations.ts';
import type { SalesPageDraft } from './sales-page.schema.ts';
import { SalesPageStore } from './sales-page.store.ts';
import type { SalesPagesTable } from './sales-page.tables.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    salesPage: SalesPageStore;
  }
}

declare module '../../core/caches.ts' {
  interface Caches {
    /** The buyers' pages rendered, by guide, release and public address (buyers-page.ts). */
    buyersPages: LRUCache<string, PublicPage>;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    sales_pages: SalesPagesTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** The sales page draft as last saved; null before the first save. */
    salesPage: SalesPageDraft | null;
  }
}

export const salesPageResource: Resource = {
  tag: { name: 'sales-page', description: 'The sales page buyers see: its draft and what it shows' },
  operations: salesPageOperations,
  history: { sales_pages: { kind: 'salesPage', idColumn: 'guide_id' } },
  stores: { salesPage: (scope) => new SalesPageStore(scope) },
  usesStores: ['media', 'releases', 'spots'],
  references: [
    // The draft's hero and gallery name photos; a deleted one leaves them (the live release keeps its own).
    {
      to: 'photo',
      async onDelete(photo, ctx) {
        const places = await ctx.stores.salesPage.removePhoto(photo.guideId, photo.mediaId);
        if (places.length > 0) ctx.warn(takenOutOfDraft(places));
      },
    },
  ],
  guideParts: { salesPage: (stores, guide) => stores.salesPage.draftOf(guide.id) },
  migrations: { '0012-sales-page': { up } },
  publicPages: [buyersPage],
  caches: () => ({ buyersPages: renderedPages() }),
};

/** The studio's pages are written with the same escaping templates as the buyers' page. */
export { escapeHtml, html, Markup, prose } from './html.ts';
/** The map the buyers' page draws, for any page that shows the same map (the studio's preview). */
export { drawMap, type MapOptions, type MapPoint, type Region } from './page-map.ts';
/** The preview of a working copy renders the buyers' page as it is, and its photos the same way. */
export {
  buyersPageModel,
  type PagePhoto,
  type PhotoFields,
  pagePhoto,
  type SpotFields,
  snapshotItems,
} from './page-model.ts';
export { credit } from './page-parts.ts';
export { renderBuyersPage } from './page-render.ts';
export {
  type SalesPageContent,
  type SalesPageDraft,
  salesPageContentSchema,
} from './sales-page.schema.ts';
/** The publish step snapshots `ctx.stores.salesPage.draftOf(guideId)` into a release. */
export type { SalesPageStore } from './sales-page.store.ts';
