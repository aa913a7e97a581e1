import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import {
  aloneIn,
  type Coordination,
  type Exclusive,
  localRevocationCount,
  REVOCATION_CHANNEL,
} from './coordination.ts';
import { connectionSettings, GuardedClient, type StoreDeadlines } from './pg-deadlines.ts';

/** How often the listening connection sends itself a beat. */
const BEAT_EVERY_MS = 200;
/**
 * How long a beat that came back vouches for the marks, counted from when it was sent: less than
 * the second a revocation may take to reach every instance, with room for a slow event loop.
 */
const BEAT_VOUCHES_MS = 800;
/** How the listening connection shows in pg_stat_activity, followed by its schema. */
export const APPLICATION_NAME = 'creator-api coordination';
/** Waits between attempts to open the listening connection again after it was lost. */
const RECONNECT_AFTER_MS = 1000;

export interface CoordinationLog {
  warn(obj: object, msg: string): void;
}

/**
 * PostgreSQL's coordination: one connection of its own per process, outside the pool, that
 * LISTENs for revocations, holds the session locks of exclusive jobs and runs the short reads many
 * calls share (guide revisions: db/aside-reads.ts).
 *
 * Why a revocation cannot go unseen for more than a second: notifications reach a listener in the
 * order their transactions committed, one queue for every channel. Every 200 ms the connection
 * NOTIFYs a channel only it listens to; when that beat comes back, every revocation committed
 * before it was sent has arrived before it. Marks are trusted only while the last beat back was
 * sent less than 800 ms ago, so a revocation acknowledged a second ago has moved them. A lost or
 * late connection makes marks undefined (the store is read every time) until beats come back.
 */
export class PostgresCoordination implements Coordination {
  private readonly connectionString: string;
  private readonly log: CoordinationLog | undefined;
  private readonly deadlines: StoreDeadlines | undefined;
  private client: pg.Client | undefined;
  private opening: Promise<pg.Client> | undefined;
  private nextAttemptAt = 0;
  private closed = false;
  private schema = '';
  /** Moves on every revocation heard and every connection opened or lost. */
  private generation = 0;
  private readonly beatChannel = `creator_api_beat_${randomBytes(8).toString('hex')}`;
  private beatsSent = 0;
  private beatInFlight = false;
  private readonly sentAt = new Map<number, number>();
  /** When the last beat that came back was sent (performance.now()). */
  private vouchedFrom = Number.NEGATIVE_INFINITY;
  private beats: NodeJS.Timeout | undefined;
  private readonly running = new Set<string>();

  constructor(connectionString: string, log?: CoordinationLog, deadlines?: StoreDeadlines) {
    this.connectionString = connectionString;
    this.log = log;
    this.deadlines = deadlines;
  }

  revocationMark(): string | undefined {
    if (!this.live()) return undefined;
    return `${localRevocationCount()} ${this.generation}`;
  }

  /**
   * A short read on the listening connection, beside the pool (db/aside-reads.ts); undefined while
   * the connection is not open or its beats do not come back (then the caller uses the pool).
   */
  read<R>(text: string, values: unknown[]): Promise<R[]> | undefined {
    const client = this.live();
    if (!client) return undefined;
    return client.query(text, values).then((result) => result.rows as R[]);
  }

  /** The listening connection while its beats come back; else none (and it is opened again if lost). */
  private live(): pg.Client | undefined {
    if (!this.client) {
      if (!this.opening && performance.now() >= this.nextAttemptAt) this.open().catch(() => {});
      return undefined;
    }
    if (performance.now() - this.vouchedFrom > BEAT_VOUCHES_MS) return undefined;
    return this.client;
  }

  async exclusive<T>(job: string, work: () => Promise<T>): Promise<Exclusive<T>> {
    const outcome = await aloneIn(this.running, job, () => this.underLock(job, work));
    return outcome.ran ? outcome.value : outcome;
  }

  /** `work` under the session lock of `job`, held on the listening connection, if no one holds it. */
  private async underLock<T>(job: string, work: () => Promise<T>): Promise<Exclusive<T>> {
    const client = await this.open();
    const key = `${this.schema} ${job}`;
    const { rows } = await client.query<{ got: boolean }>(
      'select pg_try_advisory_lock(hashtextextended($1, 0)) as got',
      [key],
    );
    if (!rows[0]?.got) return { ran: false };
    try {
      return { ran: true, value: await work() };
    } finally {
      // A connection lost meanwhile took its locks with it.
      if (this.client === client) {
        await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => {});
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.beats);
    const client = this.client ?? (await this.opening?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  /** The listening connection, opened on first use and again after it was lost. */
  private open(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.opening) return this.opening;
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    if (performance.now() < this.nextAttemptAt) {
      return Promise.reject(new Error('the coordination connection was lost; trying again shortly'));
    }
    this.opening = this.connect().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async connect(): Promise<pg.Client> {
    // Bounded like the pool's: a frozen server must not hold an exclusive job's caller forever.
    const client: pg.Client = new GuardedClient({
      connectionString: this.connectionString,
      ...connectionSettings(this.deadlines),
    });
    client.on('notification', (message) => this.heard(message));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      this.schema = rows[0]?.schema ?? '';
      // So that an operator tells it from the pool's connections in pg_stat_activity.
      await client.query('select set_config($1, $2, false)', [
        'application_name',
        `${APPLICATION_NAME} ${this.schema}`,
      ]);
      await client.query(`listen ${REVOCATION_CHANNEL}`);
      await client.query(`listen ${this.beatChannel}`);
    } catch (err) {
      this.nextAttemptAt = performance.now() + RECONNECT_AFTER_MS;
      client.removeAllListeners('notification');
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      throw new Error('the store is closed');
    }
    // Whatever happened while nobody listened is unknown: marks taken before mean nothing now.
    this.generation += 1;
    this.client = client;
    this.beat();
    this.beats = setInterval(() => this.beat(), BEAT_EVERY_MS);
    this.beats.unref();
    return client;
  }

  private beat(): void {
    const client = this.client;
    if (!client || this.beatInFlight) return;
    this.beatInFlight = true;
    const n = ++this.beatsSent;
    this.sentAt.set(n, performance.now());
    client
      .query('select pg_notify($1, $2)', [this.beatChannel, String(n)])
      .catch(() => {}) // a failure also ends the connection, which `lost` handles
      .finally(() => {
        this.beatInFlight = false;
      });
  }

  private heard(message: pg.Notification): void {
    if (message.channel === REVOCATION_CHANNEL) {
      if (message.payload === this.schema) this.generation += 1;
      return;
    }
    if (message.channel !== this.beatChannel) return;
    const n = Number(message.payload);
    const sent = this.sentAt.get(n);
    if (sent === undefined) return;
    this.vouchedFrom = Math.max(this.vouchedFrom, sent);
    for (const earlier of this.sentAt.keys()) if (earlier <= n) this.sentAt.delete(earlier);
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.generation += 1;
    this.vouchedFrom = Number.NEGATIVE_INFINITY;
    this.sentAt.clear();
    this.beatInFlight = false;
    clearInterval(this.beats);
    this.nextAttemptAt = performance.now() + RECONNECT_AFTER_MS;
    client.removeAllListeners('notification');
    client.removeAllListeners('end');
    if (!this.closed) {
      this.log?.warn(
        { err: err?.message },
        'lost the store connection that hears revocations; reading keys from the store until it is back',
      );
    }
  }
}
