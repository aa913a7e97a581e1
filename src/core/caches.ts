/**
 * What an app keeps in memory from one call to the next: views of a guide at its revision, the
 * guide at a sales-page address, rendered pages. Built once per app by `buildApp`, never at module
 * level, so that two apps in one process (test suites, a second instance on a copy of a store)
 * never answer from each other's. Each resource adds its own by declaration merging, as with
 * `Stores` and `Services`, and builds them in its `index.ts` (`Resource.caches`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: resources merge their caches into it
export interface Caches {}
