/**
 * What the history costs a write (issue 29): the same writes on two app servers started alike, one
 * recording every change (as deployed), one started without history (`withoutHistory`, its
 * triggers dropped), in alternating rounds so a busy moment hits both. Every request changes what
 * it writes (a counter in a text field), so each one records before-images: an upsert of 25 spots
 * (25 rows), update_spot (one) and set_itinerary_days (one itinerary). Goal: with history at most
 * 1.15x the time of the same write without it (requests/s without over with).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Fixture } from './context.ts';
import type { Child } from './ipc.ts';
import { type LoadSettings, newTally, runAutocannon, summarize, type Tally } from './load.ts';
import { processCpuMs } from './machine.ts';
import { seedFixtures } from './seed.ts';

export const HISTORY_COST_GOAL = 1.15;

/** One write whose body differs on every call: `n` counts the calls of its connection's run. */
interface ChangingWrite {
  name: string;
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  body: (n: number) => string;
}

interface Server {
  name: string;
  app: Child;
  writes: ChangingWrite[];
  tallies: Tally[];
  /** The server's CPU (every thread, user and system) over each write's rounds after the first (no warm-up), in ms, and the calls it served. */
  cpuMs: number[];
  cpuCalls: number[];
}

/** The three writes on a server's fixtures, each changing every record it sends. */
async function changingWrites(app: Child, dir: string): Promise<ChangingWrite[]> {
  const { origin, key } = app.ready;
  const { batch25, trip14 } = (await seedFixtures(origin, key!, new Set(['batch25', 'trip14']), dir)) as Record<
    'batch25' | 'trip14',
    Fixture
  >;
  const listed = await fetch(`${origin}/api/v1/guides/${batch25.productId}/spots?limit=1`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const spotId = ((await listed.json()) as { spots: Array<{ spotId: string }> }).spots[0]!.spotId;
  const spots = batch25.sent!;
  const days = trip14.sent!;
  return [
    {
      name: 'upsert_spots (25 spots, each changed)',
      method: 'POST',
      path: batch25.path,
      body: (n) => JSON.stringify({ spots: spots.map((s) => ({ ...s, description: `${s.description} (${n})` })) }),
    },
    {
      name: 'update_spot',
      method: 'PATCH',
      path: `/api/v1/spots/${spotId}`,
      body: (n) => JSON.stringify({ description: `Reached by the lakeside path, visit ${n}.` }),
    },
    {
      name: 'set_itinerary_days (14 days)',
      method: 'PUT',
      path: trip14.path,
      body: (n) => JSON.stringify({ days: days.map((d, i) => (i === 0 ? { ...d, note: `Start early (${n}).` } : d)) }),
    },
  ];
}

/**
 * Rounds and seconds a round of each write on each server: BENCH_HISTORY_ROUNDS (default 32) of
 * BENCH_HISTORY_ROUND_SECONDS (default 0.5). Twice the table's time: runs of 8 s in all differed by
 * up to a fifth on this machine. Short turns: a machine whose speed moves from one second to the
 * next moves both servers' turns alike; two servers without history read 0.94–1.08x in turns of
 * 2 s, 1.00–1.03x in turns of half a second (docs/decisions/performance.md).
 */
function historyRounds(): { rounds: number; seconds: number } {
  const whole = (name: string, fallback: number) => {
    const value = Number(process.env[name] ?? fallback);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    rounds: Math.round(whole('BENCH_HISTORY_ROUNDS', 32)),
    seconds: whole('BENCH_HISTORY_ROUND_SECONDS', 0.5),
  };
}

export interface HistoryCost {
  /** The highest of the three writes' time with history over without. */
  worst: number;
  lines: string[];
}

export async function benchHistoryCost(
  startApp: (dataDir: string, env: Record<string, string>) => Promise<Child>,
  settings: LoadSettings,
): Promise<HistoryCost> {
  const dirs: string[] = [];
  const servers: Server[] = [];
  try {
    for (const [name, env] of [
      ['with history', {}],
      ['without history', { BENCH_WITHOUT_HISTORY: '1' }],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'creator-api-bench-history-'));
      dirs.push(dir);
      const app = await startApp(dir, env);
      const writes = await changingWrites(app, dir);
      servers.push({
        name,
        app,
        writes,
        tallies: writes.map(() => newTally()),
        cpuMs: writes.map(() => 0),
        cpuCalls: writes.map(() => 0),
      });
    }
    const { rounds, seconds } = historyRounds();
    // Calls already made per server and write: every request of every round writes something new.
    const counters = servers.map((s) => s.writes.map(() => 0));
    for (let round = 1; round <= rounds; round++) {
      for (let w = 0; w < 3; w++) {
        // Each round starts with the other server: what one leaves running (its checkpoint thread
        // catching up, a collection) falls on each alike.
        const order = round % 2 === 1 ? [0, 1] : [1, 0];
        for (const s of order) {
          const server = servers[s]!;
          const write = server.writes[w]!;
          const { origin, key } = server.app.ready;
          const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
          const cpuBefore = processCpuMs(server.app.process.pid!);
          const callsBefore = server.tallies[w]!.completed;
          await runAutocannon(
            {
              url: origin,
              requests: [
                {
                  method: write.method,
                  path: write.path,
                  headers,
                  setupRequest: (req: Record<string, unknown>) => {
                    counters[s]![w]! += 1;
                    return { ...req, body: write.body(counters[s]![w]!) };
                  },
                },
              ],
            },
            server.tallies[w]!,
            { seconds, connections: settings.connections, warmupSeconds: round === 1 ? settings.warmupSeconds : 0 },
          );
          const cpuAfter = processCpuMs(server.app.process.pid!);
          if (round > 1 && cpuBefore !== undefined && cpuAfter !== undefined) {
            server.cpuMs[w]! += cpuAfter - cpuBefore;
            server.cpuCalls[w]! += server.tallies[w]!.completed - callsBefore;
          }
        }
      }
    }
    const lines = [
      `History's cost to a write: ${rounds} alternating rounds of ${seconds} s, every call changing its records`,
    ];
    let worst = 0;
    let errors = 0;
    for (let w = 0; w < 3; w++) {
      const [withIt, without] = servers.map((s) => summarize(s.tallies[w]!, undefined));
      const ratio = without!.requestsPerSecond / withIt!.requestsPerSecond;
      worst = Math.max(worst, ratio);
      errors += servers.reduce((n, s) => n + s.tallies[w]!.non2xx + s.tallies[w]!.errors, 0);
      lines.push(
        `  ${servers[0]!.writes[w]!.name.padEnd(40)} with ${withIt!.requestsPerSecond.toFixed(0).padStart(6)} req/s, ` +
          `without ${without!.requestsPerSecond.toFixed(0).padStart(6)} req/s: ${ratio.toFixed(3)}x ` +
          `(goal <= ${HISTORY_COST_GOAL}) ${ratio <= HISTORY_COST_GOAL ? 'PASS' : 'BELOW'}`,
      );
      // What the write costs the server, apart from how the two cores were shared with the client.
      const [cpuWith, cpuWithout] = servers.map((s) => s.cpuMs[w]! / Math.max(1, s.cpuCalls[w]!));
      if (cpuWith && cpuWithout) {
        lines.push(
          `    server CPU a write (every thread): with ${(cpuWith * 1000).toFixed(0)} µs, without ` +
            `${(cpuWithout * 1000).toFixed(0)} µs: ${(cpuWith / cpuWithout).toFixed(3)}x (not judged)`,
        );
      }
    }
    if (errors > 0) lines.push(`  ${errors} errors or non-2xx answers`);
    return { worst: errors > 0 ? Number.POSITIVE_INFINITY : worst, lines };
  } finally {
    await Promise.all(servers.map((s) => s.app.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
