/**
 * The mixed load: many assistants at work at once, on both stores in one run. Each creator has a
 * guide of 50 full spots and a key of its own; every connection repeats a cycle of ten calls for
 * the next creator in turn: eight reads (get_guide over REST and MCP tools/call, list_spots,
 * get_spot twice, whoami, list_guides, get_spot over MCP) and two writes (update_spot,
 * update_guide), so 80% reads, and every cycle's writes make the next cycle's views stale.
 * SQLite and PostgreSQL take turns, round after round, on two servers started alike; the goal is
 * PostgreSQL at 0.6 of SQLite's requests/s or more, with its p99 under 150 ms.
 *
 * Each server's 50 connections are opened once, before anything is timed, and kept through every
 * round, as an assistant keeps its connection (kept-connections.ts says why not autocannon), and each
 * connection resumes its cycle where the last round left it.
 */
import { loadavg } from 'node:os';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { Child } from './ipc.ts';
import { KeptConnections, type LoadRequest, type Outcome } from './kept-connections.ts';
import { newTally, summarize, type Tally } from './load.ts';
import { CpuTally } from './machine.ts';
import { fullSpot, seededRandom } from './spot-content.ts';

export const MIXED_RATIO_GOAL = 0.6;
export const MIXED_P99_GOAL_MS = 150;
/** Creators (one guide and one key each) on each store. */
export const MIXED_CREATORS = 50;
const SPOTS_PER_GUIDE = 50;
const BATCH = 25;
const MODERN_PROTOCOL_VERSION = '2026-07-28';

interface Assistant {
  key: string;
  productId: string;
  spotIds: string[];
}

async function call<T>(origin: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`setup: ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Every creator's guide and spots, the same content on both stores. */
export async function seedAssistants(origin: string, keys: readonly string[]): Promise<Assistant[]> {
  const today = new Date().toISOString().slice(0, 10);
  return Promise.all(
    keys.map(async (key, n) => {
      const { productId } = await call<{ productId: string }>(origin, key, 'POST', '/guides', {
        name: `Mixed load guide ${n + 1}`,
      });
      const rng = seededRandom(n + 1);
      const spots = Array.from({ length: SPOTS_PER_GUIDE }, (_, i) => fullSpot(i, rng, today));
      const spotIds: string[] = [];
      for (let start = 0; start < spots.length; start += BATCH) {
        const answer = await call<{ spots: Array<{ spotId: string }> }>(
          origin,
          key,
          'POST',
          `/guides/${productId}/spots/batch`,
          { spots: spots.slice(start, start + BATCH) },
        );
        spotIds.push(...answer.spots.map((s) => s.spotId));
      }
      return { key, productId, spotIds };
    }),
  );
}

type Request = Omit<LoadRequest, 'headers'> & { headers?: Record<string, string> };
interface Step {
  call: string;
  request(a: Assistant, n: number): Request;
}

const mcp = (tool: string, args: (a: Assistant, n: number) => Record<string, unknown>): Step => ({
  call: `MCP ${tool}`,
  request: (a, n) => ({
    method: 'POST',
    path: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: args(a, n),
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
          'io.modelcontextprotocol/clientInfo': { name: 'creator-api-bench', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  }),
});

const spotOf = (a: Assistant, n: number, offset: number) => a.spotIds[(n * 7 + offset) % a.spotIds.length]!;

/** One assistant's cycle: eight reads, two writes. */
const get = (call: string, path: (a: Assistant, n: number) => string): Step => ({
  call: `REST ${call}`,
  request: (a, n) => ({ method: 'GET', path: `/api/v1${path(a, n)}` }),
});
const patch = (call: string, path: (a: Assistant, n: number) => string, body: (n: number) => object): Step => ({
  call: `REST ${call}`,
  request: (a, n) => ({
    method: 'PATCH',
    path: `/api/v1${path(a, n)}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body(n)),
  }),
});
const CYCLE: Step[] = [
  get('get_guide', (a) => `/guides/${a.productId}`),
  mcp('get_guide', (a) => ({ productId: a.productId })),
  get('list_spots', (a) => `/guides/${a.productId}/spots`),
  get('get_spot', (a, n) => `/spots/${spotOf(a, n, 0)}`),
  get('whoami', () => '/me'),
  get('get_spot', (a, n) => `/spots/${spotOf(a, n, 1)}`),
  get('list_guides', () => '/guides'),
  mcp('get_spot', (a, n) => ({ spotId: spotOf(a, n, 2) })),
  patch(
    'update_spot',
    (a, n) => `/spots/${spotOf(a, n, 0)}`,
    (n) => ({ description: `Checked again on visit ${n}: the path is open and the hut serves lunch.` }),
  ),
  patch(
    'update_guide',
    (a) => `/guides/${a.productId}`,
    (n) => ({ headline: `Twenty hut-to-hut hikes, checked ${n} times` }),
  ),
];

/** A server's counts over its runs, with each call's latencies apart. */
export type MixedTally = Tally & { toolErrors: number; byCall: Map<string, RecordableHistogram> };

export function newMixedTally(): MixedTally {
  return { ...newTally(), toolErrors: 0, byCall: new Map(CYCLE.map((s) => [s.call, createHistogram()])) };
}

/**
 * The mixed load on one server: its assistants, its kept connections, and where each connection
 * is in its cycle. A round resumes every cycle where the last one stopped, so no round begins with
 * all connections sending the same call at once.
 */
export class MixedLoad {
  private readonly assistants: readonly Assistant[];
  private readonly connections: KeptConnections;
  private readonly positions: Array<{ step: number; a: Assistant; n: number }>;
  private next = 0;

  constructor(assistants: readonly Assistant[], connections: KeptConnections) {
    this.assistants = assistants;
    this.connections = connections;
    this.positions = Array.from({ length: connections.size }, () => ({ step: 0, ...this.nextAssistant() }));
  }

  close(): Promise<void> {
    return this.connections.close();
  }

  /** Runs for `seconds` without counting anything. */
  warmUp(seconds: number): Promise<void> {
    return this.during(seconds, undefined);
  }

  /** One timed run added to the tally: every request sent within `seconds`, counted once answered. */
  run(tally: MixedTally, seconds: number): Promise<void> {
    return this.during(seconds, tally);
  }

  private nextAssistant(): { a: Assistant; n: number } {
    const n = this.next++;
    return { a: this.assistants[n % this.assistants.length]!, n };
  }

  private async during(seconds: number, tally: MixedTally | undefined): Promise<void> {
    const start = performance.now();
    const until = start + seconds * 1000;
    await Promise.all(this.positions.map((_, i) => this.cycle(i, until, tally)));
    if (tally) tally.seconds += (performance.now() - start) / 1000;
  }

  /** Connection `i`'s calls, one after the other, until the time is up. */
  private async cycle(i: number, until: number, tally: MixedTally | undefined): Promise<void> {
    const at = this.positions[i]!;
    while (performance.now() < until) {
      const step = CYCLE[at.step]!;
      const made = step.request(at.a, at.n);
      const sentAt = performance.now();
      const outcome = await this.connections.send(i, {
        ...made,
        headers: { ...made.headers, authorization: `Bearer ${at.a.key}` },
      });
      if (tally) count(tally, step.call, outcome, Math.max(1, Math.round((performance.now() - sentAt) * 1000)));
      at.step = (at.step + 1) % CYCLE.length;
      if (at.step === 0) Object.assign(at, this.nextAssistant());
    }
  }
}

function count(tally: MixedTally, call: string, outcome: Outcome, us: number): void {
  if (!('status' in outcome)) {
    tally.errors += 1;
    if (outcome.failed === 'timeout') tally.timeouts += 1;
    return;
  }
  tally.completed += 1;
  tally.statusCodes[outcome.status] = (tally.statusCodes[outcome.status] ?? 0) + 1;
  if (outcome.status < 200 || outcome.status >= 300) tally.non2xx += 1;
  else if (outcome.body.includes('"isError":true')) tally.toolErrors += 1;
  tally.latencyUs.record(us);
  tally.byCall.get(call)?.record(us);
}

export interface MixedSettings {
  seconds: number;
  rounds: number;
  connections: number;
  warmupSeconds: number;
}

export interface MixedBench {
  lines: string[];
  /** PostgreSQL's requests/s as a fraction of SQLite's. */
  ratio: number;
  postgresP99Ms: number;
  hadErrors: boolean;
}

/** Each call's p50 and p99 on both stores, one line per call: where the time goes. */
function byCall(lite: MixedTally, post: MixedTally): string[] {
  const ms = (h: RecordableHistogram | undefined, p: number) =>
    h && h.count > 0 ? (h.percentile(p) / 1000).toFixed(1).padStart(6) : '     -';
  return [...lite.byCall.keys()].map((call) => {
    const [l, p] = [lite.byCall.get(call), post.byCall.get(call)];
    return `    ${call.padEnd(18)} ${ms(l, 50)} / ${ms(l, 99)}  | ${ms(p, 50)} / ${ms(p, 99)}`;
  });
}

/** Both servers must be started with BENCH_CREATORS=MIXED_CREATORS (their `keys`). */
export async function benchMixed(sqlite: Child, postgres: Child, settings: MixedSettings): Promise<MixedBench> {
  const servers = await Promise.all(
    [sqlite, postgres].map(async (child) => ({
      name: child.ready.dialect ?? child.name,
      child,
      load: new MixedLoad(
        await seedAssistants(child.ready.origin, child.ready.keys ?? []),
        await KeptConnections.open(child.ready.origin, settings.connections),
      ),
      tally: newMixedTally(),
      cpu: new CpuTally(),
      loadAverage: [] as number[],
    })),
  );
  try {
    for (const s of servers) await s.load.warmUp(settings.warmupSeconds);
    const seconds = settings.seconds / settings.rounds;
    for (let round = 1; round <= settings.rounds; round++) {
      for (const s of servers) {
        await s.cpu.during([process.pid, s.child.process.pid!], () => s.load.run(s.tally, seconds));
        s.loadAverage.push(loadavg()[0]!);
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.load.close()));
  }
  const measured = servers.map((s) => ({ ...s, m: summarize(s.tally, s.cpu.share()) }));
  const [lite, post] = measured as [(typeof measured)[0], (typeof measured)[0]];
  const ratio = lite.m.requestsPerSecond > 0 ? post.m.requestsPerSecond / lite.m.requestsPerSecond : 0;
  const hadErrors = measured.some((s) => s.m.non2xx + s.m.errors + s.m.timeouts + s.tally.toolErrors > 0);
  const row = (s: (typeof measured)[0]) =>
    `  ${s.name.padEnd(9)} ${Math.round(s.m.requestsPerSecond).toString().padStart(6)} req/s  p50 ${s.m.p50Ms
      .toFixed(1)
      .padStart(6)} ms  p99 ${s.m.p99Ms.toFixed(1).padStart(6)} ms  non-2xx ${s.m.non2xx}  errors ${
      s.m.errors + s.m.timeouts
    }  tool errors ${s.tally.toolErrors}  other cpu ${s.m.cpu?.otherCores.toFixed(2) ?? '?'}  load avg ${s.loadAverage
      .map((l) => l.toFixed(1))
      .join('/')}`;
  const pass = ratio >= MIXED_RATIO_GOAL && post.m.p99Ms < MIXED_P99_GOAL_MS;
  return {
    ratio,
    postgresP99Ms: post.m.p99Ms,
    hadErrors,
    lines: [
      `Mixed load (80% reads, ${settings.connections} connections, ${MIXED_CREATORS} creators, ` +
        `${settings.seconds} s per store in ${settings.rounds} rounds):`,
      row(lite),
      row(post),
      `  postgres/sqlite ${ratio.toFixed(2)} (goal >= ${MIXED_RATIO_GOAL}), postgres p99 ${post.m.p99Ms.toFixed(
        0,
      )} ms (goal < ${MIXED_P99_GOAL_MS}): ${pass ? 'ok' : 'BELOW'}${hadErrors ? '  (THIS RUN HAD ERRORS)' : ''}`,
      '  each call, p50 / p99 ms (sqlite | postgres):',
      ...byCall(lite.tally, post.tally),
    ],
  };
}
