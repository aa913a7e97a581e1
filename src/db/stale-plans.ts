/**
 * What PostgreSQL answers when a statement prepared before a migration now yields other columns
 * (`select *` after a column was added): the name is dropped so that the text is prepared anew.
 */
export function isStalePlan(err: unknown): boolean {
  return (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String(err));
}

/** Attempts of a transaction at most while statements of it are found stale, one text at a time. */
const STALE_ATTEMPTS = 10;

/**
 * Runs a transaction again when it failed only because a statement prepared before a migration
 * went stale (that text is prepared anew on the next attempt): during a rolling upgrade that adds
 * a column, writes on the instances still running go through instead of failing once per text.
 * `attempt` must start from scratch: the failed attempt was rolled back.
 */
export async function retryingStalePlans<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isStalePlan(err) || n >= STALE_ATTEMPTS) throw err;
    }
  }
}
