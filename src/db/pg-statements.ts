import { GuardedClient } from './pg-deadlines.ts';
import { isStalePlan } from './stale-plans.ts';

/**
 * Statements named at most per process: each connection keeps every statement it prepared, so the
 * bound keeps PostgreSQL's memory bounded. Past it, statements run unnamed, parsed every time.
 */
const MAX_NAMED = 256;
/** Texts with more parameters are mostly `in (…)` lists of one size or another: not worth a name. */
const MAX_PARAMETERS = 32;

const names = new Map<string, string>();
let made = 0;

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED) return known;
  const name = `creator_api_${++made}`;
  names.set(text, name);
  return name;
}

/**
 * A pg client that runs each parameterized statement (what Kysely sends) as a named prepared
 * statement, so that PostgreSQL parses and plans it once per connection instead of on every call:
 * the same text always gets the same name. A statement outside a transaction whose plan went stale
 * is run again unnamed; inside one, the error stands (the transaction is aborted: see
 * retryingStalePlans) and the next use prepares the text anew.
 */
export class NamedStatementsClient extends GuardedClient {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this passes them through
  override query(config: any, values?: any, callback?: any): any {
    const plain = typeof config === 'string' && Array.isArray(values) && callback === undefined;
    if (!plain || values.length === 0 || values.length > MAX_PARAMETERS) return super.query(config, values, callback);
    const name = nameOf(config);
    if (name === undefined) return super.query(config, values);
    const outsideTransaction = this.getTransactionStatus() === 'I';
    return super.query({ name, text: config, values }).catch((err: unknown) => {
      if (!isStalePlan(err)) throw err;
      if (names.get(config) === name) names.delete(config);
      if (!outsideTransaction) throw err;
      return super.query(config, values);
    });
  }
}
