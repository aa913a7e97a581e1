import { type Kysely, sql } from 'kysely';

/**
 * Every creator the agreement flag calls accepted has accepted the current version on record.
 * Until now the admin command line and the demo seed set the flag without a record: nobody
 * accepted for those accounts, so they accept in the studio like anyone (docs/decisions.md,
 * "Accounts the operator made"). The demo creator, whom no person stands behind, gets the record
 * the seed now writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const current = sql`(select max(version) from agreement_versions)`;
  const unrecorded = sql`agreement_accepted = 1 and not exists (
    select 1 from agreement_acceptances a where a.creator_id = creators.id and a.version = ${current})`;
  await sql`insert into agreement_acceptances (creator_id, version, accepted_at)
    select id, ${current}, updated_at from creators where email = 'demo@example.com' and ${unrecorded}`.execute(db);
  await sql`update creators set agreement_accepted = 0 where ${unrecorded}`.execute(db);
}
