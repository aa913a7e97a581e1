/** Called when a store call ends; `failed` is its error, if it threw. */
export type EndOfCall = (failed?: unknown) => void;

/**
 * What metrics and traces watch in the store: connections asked for, handed over and given back,
 * and each statement. Every hook is optional; with no observer attached nothing is timed.
 */
export interface StoreObserver {
  /** A caller starts waiting for a connection; the returned function runs once it has one. */
  acquiring?(): EndOfCall;
  /** A statement starts (its SQL, no parameters); the returned function runs when it ends. */
  statement?(sql: string): EndOfCall;
}

/** How the store's connections are used right now, read when metrics are scraped. */
export interface ConnectionUse {
  /** Connections the store may open at most (1 on the embedded store). */
  max: number;
  /** Connections open now, idle or not. */
  open: number;
  /** Connections handed to a caller and not given back. */
  inUse: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

const NOTHING: EndOfCall = () => {};

/**
 * The store's one place for observers. The dialect (observed-dialect.ts) and the embedded store's
 * direct reads report here; metrics and traces attach while an app runs and detach when it closes.
 */
export class StoreProbe {
  private observers: StoreObserver[] = [];
  inUse = 0;
  waiting = 0;
  readonly max: number;
  private readonly openConnections: () => number;

  constructor(max: number, openConnections?: () => number) {
    this.max = max;
    this.openConnections = openConnections ?? (() => max);
  }

  /** Whether an observer watches statements: else they run unwrapped. */
  statementsWatched = false;

  /** Starts telling `observer`; the returned function stops. */
  attach(observer: StoreObserver): () => void {
    this.observers = [...this.observers, observer];
    this.statementsWatched = this.observers.some((o) => o.statement);
    return () => {
      this.observers = this.observers.filter((o) => o !== observer);
      this.statementsWatched = this.observers.some((o) => o.statement);
    };
  }

  use(): ConnectionUse {
    return { max: this.max, open: this.openConnections(), inUse: this.inUse, waiting: this.waiting };
  }

  acquiring(): EndOfCall {
    return this.each((o) => o.acquiring?.());
  }

  statement(sql: string): EndOfCall {
    return this.each((o) => o.statement?.(sql));
  }

  private each(start: (observer: StoreObserver) => EndOfCall | undefined): EndOfCall {
    const { observers } = this;
    if (observers.length === 0) return NOTHING;
    if (observers.length === 1) return start(observers[0] as StoreObserver) ?? NOTHING;
    const ends = observers.map(start);
    return (failed) => {
      for (const end of ends) end?.(failed);
    };
  }
}
