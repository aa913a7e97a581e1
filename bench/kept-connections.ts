import { Client, errors } from 'undici';

/** One request as the mixed load sends it. */
export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a request came back with, or how it failed. */
export type Outcome = { status: number; body: string } | { failed: 'error' | 'timeout' };

/** As autocannon's default: a request unanswered this long counts as a timeout. */
const TIMEOUT_MS = 10_000;
/** Idle between rounds (the other store's turn) must not close a connection. */
const KEEP_ALIVE_MS = 10 * 60_000;

/**
 * Connections to one server, opened once and kept for every round of a bench, one request at a
 * time on each. autocannon opens a fresh set at every run; since libuv 1.45 a busy Node server
 * accepts one connection per event-loop turn, so the last of 50 connections opened together waits
 * seconds to be accepted while the first ones already cycle, and their first requests measured
 * that wait, not the server (docs/decisions.md, the mixed load).
 */
export class KeptConnections {
  private readonly clients: Client[];

  private constructor(clients: Client[]) {
    this.clients = clients;
  }

  /** `count` connections, each accepted by the server (one answered request) before it returns. */
  static async open(origin: string, count: number): Promise<KeptConnections> {
    const clients = Array.from(
      { length: count },
      () =>
        new Client(origin, {
          pipelining: 1,
          keepAliveTimeout: KEEP_ALIVE_MS,
          keepAliveMaxTimeout: KEEP_ALIVE_MS,
          headersTimeout: TIMEOUT_MS,
          bodyTimeout: TIMEOUT_MS,
        }),
    );
    const kept = new KeptConnections(clients);
    for (let i = 0; i < count; i++) {
      const answer = await kept.send(i, { method: 'GET', path: '/healthz', headers: {} });
      if (!('status' in answer) || answer.status !== 200) throw new Error(`connection ${i}: /healthz did not answer`);
    }
    return kept;
  }

  get size(): number {
    return this.clients.length;
  }

  /** One request on connection `i`, its answer read to the end. */
  async send(i: number, request: LoadRequest): Promise<Outcome> {
    try {
      const res = await this.clients[i]!.request({
        method: request.method as 'GET',
        path: request.path,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      return { status: res.statusCode, body: await res.body.text() };
    } catch (err) {
      const timedOut = err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError;
      return { failed: timedOut ? 'timeout' : 'error' };
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.close()));
  }
}
