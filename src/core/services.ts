import type { Clock } from './clock.ts';

/**
 * What handlers use besides the store: blob storage, the link checker… Each resource adds its own
 * by declaration merging (as with `Stores`), builds it from the settings in its `index.ts`, and
 * tests may hand in their own (a link checker allowed to reach the test's local servers).
 */
// biome-ignore lint/suspicious/noEmptyInterface: resources merge their services into it
export interface Services {}

/** What a resource builds its services from: the settings every resource may read. */
export interface ServiceSettings {
  /** The process's clock (the link checker stamps its results with it). */
  clock: Clock;
  /** The folder of the embedded store; files a resource keeps live below it by default. */
  dataDir: string;
  /** Where photo files live when not under `dataDir` (MEDIA_DIR). */
  mediaDir?: string | undefined;
}
