import type { Resource } from '../../core/resource.ts';
import { previewOperations } from './preview.operations.ts';
import { up } from './preview-link.migration.ts';
import { PreviewLinksStore } from './preview-link.store.ts';
import type { PreviewLinksTable } from './preview-link.tables.ts';
import * as linkMakers from './preview-link-maker.migration.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    previewLinks: PreviewLinksStore;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    preview_links: PreviewLinksTable;
  }
}

/** The working copy as buyers would see it: a page for the studio and a short-lived link for the assistant. */
export const previewResource: Resource = {
  tag: { name: 'preview', description: 'The working copy as buyers would see it after the next publish' },
  operations: previewOperations,
  history: { preview_links: 'untracked' },
  stores: { previewLinks: (scope) => new PreviewLinksStore(scope) },
  migrations: { '0021-preview-links': { up }, '0026-preview-link-makers': linkMakers },
};

/** The studio lists and ends links; archiving a guide ends its links, from the studio or the admin command line. */
export { type PreviewLinkListing, PreviewLinksStore } from './preview-link.store.ts';
export { type RenderedPreview, renderPreview } from './preview-page.ts';
