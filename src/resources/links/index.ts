import type { Resource } from '../../core/resource.ts';
import * as linksMigration from './link.migration.ts';
import { linkOperations } from './link.operations.ts';
import type { LinkRecord } from './link.store.ts';
import { LinksStore } from './link.store.ts';
import type { LinkChecksTable } from './link.tables.ts';
import { LinkChecker } from './link-checker.ts';

declare module '../../core/stores.ts' {
  interface Stores {
    links: LinksStore;
  }
}

declare module '../../core/services.ts' {
  interface Services {
    /** Fetches creator-supplied links through the address guard (check_links). */
    linkChecker: LinkChecker;
  }
}

declare module '../../db/tables.ts' {
  interface Database {
    link_checks: LinkChecksTable;
  }
}

declare module '../../core/guide-contents.ts' {
  interface GuideParts {
    /** What is stored of the guide's links, by URL: the last check and the verified mark (links no longer held too). */
    linkRecords: Map<string, LinkRecord>;
  }
}

export const linksResource: Resource = {
  tag: { name: 'links', description: 'The web links a guide holds: their report, checks and verification' },
  operations: linkOperations,
  // A link check is what was found on the web, not what the creator wrote.
  history: { link_checks: 'untracked' },
  stores: { links: (scope) => new LinksStore(scope) },
  // Every record of a guide that can hold a link comes through guideContents.
  usesStores: ['guideContents', 'guides'],
  guideParts: { linkRecords: (stores, guide) => stores.links.forGuide(guide.id) },
  migrations: { '0011-links': linksMigration },
  services: (settings) => ({ linkChecker: new LinkChecker({ clock: settings.clock }) }),
};

export { type HeldLink, heldLinks, type LinkHolderRecords, type LinkUse, linksHeldBy } from './held-links.ts';
export { type LinkEntry, linkReport } from './link-report.ts';
/** The studio's authorization server fetches client metadata documents through the same guard. */
export { GuardedAgent, type GuardOptions, loadUndici, type Resolver } from './safe-fetch.ts';
