/**
 * A connection beside the pool for short reads that many calls share (PostgreSQL's coordination
 * connection, pg-store.ts): a call that only needs such a read neither takes a pool connection nor
 * waits behind those who hold them all.
 */
export interface AsideConnection {
  /** The rows of one statement; undefined when the connection is not open now (then read through the pool). */
  read<R>(text: string, values: unknown[]): Promise<R[]> | undefined;
}

/** The aside connection of a PostgreSQL store's Kysely instance (none for SQLite, nor for a transaction). */
export const asideConnections = new WeakMap<object, AsideConnection>();

type Answer<R> = (row: R | null | undefined) => void;

/**
 * Rows by key, one statement for every caller that asked while the previous statement ran. Each
 * statement is sent after every caller it answers had asked, so a caller never gets a row older
 * than its call, as with a query of its own: a write committed before the call is seen. A caller
 * who comes while a statement runs waits for the next one, never joins the one under way.
 */
export class SharedReads<R> {
  private readonly aside: AsideConnection;
  /** Takes the keys as its one parameter ($1, an array). */
  private readonly text: string;
  private readonly keyOf: (row: R) => string;
  private next = new Map<string, Answer<R>[]>();
  private reading = false;

  constructor(aside: AsideConnection, text: string, keyOf: (row: R) => string) {
    this.aside = aside;
    this.text = text;
    this.keyOf = keyOf;
  }

  /** The row of `key` (null: none); undefined when the aside connection could not answer: read it yourself. */
  get(key: string): Promise<R | null | undefined> {
    return new Promise((answer) => {
      const waiting = this.next.get(key);
      if (waiting) waiting.push(answer);
      else this.next.set(key, [answer]);
      if (this.reading) return;
      this.reading = true;
      // Sent once the event loop has taken in what else came with this call: they ask together.
      setImmediate(() => void this.readAll());
    });
  }

  private async readAll(): Promise<void> {
    try {
      while (this.next.size > 0) {
        const asked = this.next;
        this.next = new Map();
        const rows = await this.readRows([...asked.keys()]);
        const byKey = rows && new Map(rows.map((row) => [this.keyOf(row), row]));
        for (const [key, answers] of asked) {
          const row = byKey ? (byKey.get(key) ?? null) : undefined;
          for (const answer of answers) answer(row);
        }
      }
    } finally {
      this.reading = false;
    }
  }

  /** Undefined when the connection is closed or the statement failed: each caller then reads through the pool. */
  private async readRows(keys: string[]): Promise<R[] | undefined> {
    try {
      return await this.aside.read<R>(this.text, [keys]);
    } catch {
      return undefined;
    }
  }
}
