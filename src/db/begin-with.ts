import { AsyncLocalStorage } from 'node:async_hooks';

const withBegin = new AsyncLocalStorage<string>();

/**
 * Runs `work` so that the transaction it begins sends `statement` in the begin's own message
 * (PostgreSQL's simple protocol runs both, one round trip): what a write must say before anything
 * else, said without a statement of its own. The statement is SQL text: no parameters.
 */
export function beginningWith<T>(statement: string, work: () => Promise<T>): Promise<T> {
  return withBegin.run(statement, work);
}

/** The statement to send with the begin of the transaction being begun now, if any. */
export function statementWithBegin(): string | undefined {
  return withBegin.getStore();
}
