import { AsyncLocalStorage } from 'node:async_hooks';
import { ConnectionWaitTimeout } from './unavailable.ts';

const parties = new AsyncLocalStorage<string>();

/** The party of whoever asks for a connection when no one said on whose behalf: the studio, sales pages, jobs. */
const ANYONE = '';

/**
 * Runs `work` on behalf of `party` (a creator, or the key being looked up): the store connections
 * it waits for are shared fairly with other parties' (FairTurns).
 */
export function onBehalfOf<T>(party: string, work: () => T): T {
  return parties.run(party, work);
}

interface Waiter {
  /** Taken in this order within a party, and across parties holding as many. */
  seq: number;
  grant(): void;
}

/** A connection's turn: give it back once, when the connection goes back. */
export type GiveBack = () => void;

/**
 * The store's connections (a pool's, or the embedded store's one), handed out fairly among the
 * parties waiting for them. While one is free, whoever asks gets it at once. Once all are taken, a
 * connection given back goes to the waiting party that holds the fewest now, and among those to the
 * one whose call has waited longest; within a party, first come, first served. So one creator's
 * fifty calls may hold every connection while no one else asks, but another creator's call waits
 * for the next connection given back, not behind the fifty. The wait is bounded by `waitMs`
 * (DATABASE_ACQUIRE_TIMEOUT_MS), as a pool's is.
 */
export class FairTurns {
  private readonly capacity: number;
  private readonly waitMs: number | undefined;
  private taken = 0;
  private readonly held = new Map<string, number>();
  /** Waiters by party, in the order they came; a party is here only while it has one. */
  private readonly waiting = new Map<string, Waiter[]>();
  private seq = 0;

  constructor(capacity: number, waitMs: number | undefined) {
    this.capacity = capacity;
    this.waitMs = waitMs;
  }

  /** A connection's turn for the current party: at once while one is free, else when fairness says. */
  take(): Promise<GiveBack> {
    const party = parties.getStore() ?? ANYONE;
    // While anyone waits every connection is taken: a newcomer never passes them.
    if (this.taken < this.capacity) return Promise.resolve(this.hold(party));
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        seq: this.seq++,
        grant: () => {
          clearTimeout(timer);
          resolve(this.hold(party));
        },
      };
      const queue = this.waiting.get(party);
      if (queue) queue.push(waiter);
      else this.waiting.set(party, [waiter]);
      if (this.waitMs !== undefined) {
        const waitMs = this.waitMs;
        timer = setTimeout(() => {
          this.leave(party, waiter);
          reject(new ConnectionWaitTimeout(waitMs));
        }, waitMs);
      }
    });
  }

  private hold(party: string): GiveBack {
    this.taken += 1;
    this.held.set(party, (this.held.get(party) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.taken -= 1;
      const left = (this.held.get(party) ?? 1) - 1;
      if (left === 0) this.held.delete(party);
      else this.held.set(party, left);
      this.next()?.grant();
    };
  }

  /** The waiter whose turn it is, taken out of its queue. */
  private next(): Waiter | undefined {
    let chosen: { party: string; queue: Waiter[]; held: number } | undefined;
    for (const [party, queue] of this.waiting) {
      const held = this.held.get(party) ?? 0;
      const head = queue[0] as Waiter;
      if (!chosen || held < chosen.held || (held === chosen.held && head.seq < (chosen.queue[0] as Waiter).seq)) {
        chosen = { party, queue, held };
      }
    }
    if (!chosen) return undefined;
    const waiter = chosen.queue.shift();
    if (chosen.queue.length === 0) this.waiting.delete(chosen.party);
    return waiter;
  }

  private leave(party: string, waiter: Waiter): void {
    const queue = this.waiting.get(party);
    if (!queue) return;
    const at = queue.indexOf(waiter);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) this.waiting.delete(party);
  }
}
