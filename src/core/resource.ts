import type { Migration } from 'kysely/migration';
import type { AnyOperation } from './operation.ts';
import type { ServiceSettings, Services } from './services.ts';
import type { StoreFactories } from './stores.ts';

/**
 * What a resource folder offers: its operations, the stores handlers reach, its tables'
 * migrations (named to sort after the foundation's), and services built from the settings.
 */
export interface Resource {
  operations: readonly AnyOperation[];
  stores?: Partial<StoreFactories>;
  migrations?: Record<string, Migration>;
  services?: (settings: ServiceSettings) => Partial<Services>;
}
