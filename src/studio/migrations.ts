import type { Migration } from 'kysely/migration';
import * as agreementRecords from './agreement-records.migration.ts';
import * as emailConfirmations from './email-confirmations.migration.ts';
import * as dpopProofs from './oauth/dpop-proof.migration.ts';
import * as oauth from './oauth/oauth.migration.ts';
import './oauth/oauth.tables.ts';
import * as studioAccounts from './studio.migration.ts';
import './studio.tables.ts';

/** The studio's tables: migration numbers 0020-0029 are the studio's. */
export const studioMigrations: Record<string, Migration> = {
  '0020-studio-accounts': studioAccounts,
  '0022-oauth': oauth,
  '0023-agreement-records': agreementRecords,
  '0024-email-confirmations': emailConfirmations,
  '0027-dpop-proofs': dpopProofs,
};
