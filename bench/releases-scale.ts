/**
 * Releases at scale (issue 29), on a 2,000-spot and a 4,000-spot guide built alike
 * (bench/release-guides.ts: on sale as release 1, then a tenth of the spots renamed, a tenth
 * deleted, a tenth added, photos and chapter members moved):
 * - restore_release of release 1, timed over REST, then undo_changes of that restore, timed
 *   too: each round restores the very same records, the sizes taking turns round after round
 *   so a busy moment on the machine falls on both. Goal: the 4,000-spot restore at most 2.2x the
 *   2,000-spot one (its cost grows with the guide, never faster); the same goal for the undo.
 * - the 4,000-spot guide's history grown to 10,000 changes by small writes (update_spot, a few
 *   connections at once), then the default answers of list_changes and get_release as a client
 *   receives them: the REST body and the MCP tools/call answer of a 2026-07-28 client (decoded
 *   HTTP body, JSON-RPC envelope included). Goal: each under 64 KB.
 */
import type { Client } from '@modelcontextprotocol/client';
import { type Received, receivingClient } from '../test/helpers/received.ts';
import { jsonCaller, median } from './json-call.ts';
import { type ReleaseGuide, seedReleaseGuides } from './release-guides.ts';

export const RESTORE_GOAL = 2.2;
export const ANSWER_GOAL_BYTES = 64 * 1024;
const SIZES = [2000, 4000] as const;
const ROUNDS = 7;
const CHANGES = 10_000;
const WRITERS = 4;

export interface ReleasesBench {
  restoreRatio: number;
  undoRatio: number;
  /** The biggest of the answers measured, in bytes. */
  biggestAnswer: number;
  lines: string[];
}

interface Restored {
  changeId?: string;
  changes: Array<{ kind: string; added: number; changed: number; removed: number }>;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

/** Small writes until the guide's history holds `CHANGES` changes: each update_spot is one change. */
async function growHistory(origin: string, key: string, guide: ReleaseGuide): Promise<number> {
  const call = jsonCaller(origin, key);
  const path = `/guides/${guide.productId}/changes?limit=1`;
  const { total } = await call<{ total: number }>('GET', path);
  let next = 0;
  const missing = CHANGES - total;
  const writer = async () => {
    for (let n = next++; n < missing; n = next++) {
      const spotId = guide.spotIds[n % guide.spotIds.length]!;
      await call('PATCH', `/spots/${spotId}`, { description: `Checked again on visit ${n}.` });
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return (await call<{ total: number }>('GET', path)).total;
}

/** The default answer's bytes as an MCP 2026-07-28 client receives it. */
async function mcpBytes(client: Client, log: Received[], tool: string, args: Record<string, unknown>) {
  const answer = await client.callTool({ name: tool, arguments: args });
  if (answer.isError) throw new Error(`releases bench: ${tool} over MCP answered an error`);
  return log.findLast((r) => r.tool === tool)!.bytes;
}

/** The REST body's bytes, uncompressed. */
async function restBytes(origin: string, key: string, path: string): Promise<number> {
  const res = await fetch(`${origin}/api/v1${path}`, {
    headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' },
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`releases bench: GET ${path} answered ${res.status}`);
  return body.length;
}

export async function benchReleasesScale(origin: string, key: string, dataDir: string): Promise<ReleasesBench> {
  const call = jsonCaller(origin, key);
  const guides = await seedReleaseGuides(call, { origin, key, dataDir }, SIZES);
  const samples = new Map<number, { restore: number[]; undo: number[] }>(
    SIZES.map((size) => [size, { restore: [], undo: [] }]),
  );
  const work = new Map<number, string>();
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const { size, productId } of guides) {
      const restore = await timed(() => call<Restored>('POST', `/guides/${productId}/releases/1/restore`, {}));
      const { changeId, changes } = restore.value;
      if (!changeId) throw new Error('releases bench: restore_release found nothing to restore');
      const done = changes.map((c) => `${c.kind} +${c.added} ~${c.changed} -${c.removed}`).join(', ');
      if (work.has(size) && work.get(size) !== done) {
        throw new Error(`releases bench: round ${round} restored ${done}, not ${work.get(size)}`);
      }
      work.set(size, done);
      const undo = await timed(() => call('POST', `/guides/${productId}/changes/undo`, { changeIds: [changeId] }));
      // The first round warms caches and JIT up; it is not counted.
      if (round > 0) {
        samples.get(size)!.restore.push(restore.ms);
        samples.get(size)!.undo.push(undo.ms);
      }
    }
  }
  const [small, large] = SIZES.map((size) => {
    const s = samples.get(size)!;
    return { restore: median(s.restore), undo: median(s.undo) };
  });
  const restoreRatio = large!.restore / small!.restore;
  const undoRatio = large!.undo / small!.undo;

  const big = guides.find((g) => g.size === 4000)!;
  const changes = await growHistory(origin, key, big);
  const received: Received[] = [];
  const client = await receivingClient('2026-07-28 (client 2.x)', `${origin}/mcp`, key, received);
  const answers: Array<{ name: string; rest: number; mcp: number }> = [];
  try {
    answers.push({
      name: 'list_changes',
      rest: await restBytes(origin, key, `/guides/${big.productId}/changes`),
      mcp: await mcpBytes(client, received, 'list_changes', { productId: big.productId }),
    });
    answers.push({
      name: 'get_release',
      rest: await restBytes(origin, key, `/guides/${big.productId}/releases/1`),
      mcp: await mcpBytes(client, received, 'get_release', { productId: big.productId, release: 1 }),
    });
  } finally {
    await client.close();
  }
  const biggestAnswer = Math.max(...answers.flatMap((a) => [a.rest, a.mcp]));
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'BELOW');
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const row = (name: string, a: number, b: number, ratio: number, goal?: number) =>
    `  ${name.padEnd(16)} ${a.toFixed(0).padStart(6)} ms  ${b.toFixed(0).padStart(6)} ms  ${ratio.toFixed(2)}x` +
    (goal === undefined ? ' (reported)' : ` (goal <= ${goal}x) ${verdict(ratio <= goal)}`);
  return {
    restoreRatio,
    undoRatio,
    biggestAnswer,
    lines: [
      `Releases: restore_release of release 1, then undo_changes of it, median of ${ROUNDS} interleaved rounds (${SIZES.join(' vs ')} spots):`,
      ...SIZES.map((size) => `  ${size} spots restored each round: ${work.get(size)}`),
      row('restore_release', small!.restore, large!.restore, restoreRatio, RESTORE_GOAL),
      row('undo_changes', small!.undo, large!.undo, undoRatio, RESTORE_GOAL),
      `Default answers on the 4,000-spot guide with ${changes} changes, as a client receives them (REST body; MCP 2026-07-28 tools/call):`,
      ...answers.map(
        (a) =>
          `  ${a.name.padEnd(16)} REST ${kb(a.rest).padStart(9)}  MCP ${kb(a.mcp).padStart(9)} ` +
          `(goal < ${kb(ANSWER_GOAL_BYTES)}) ${verdict(Math.max(a.rest, a.mcp) < ANSWER_GOAL_BYTES)}`,
      ),
    ],
  };
}
