/**
 * Preloaded (`node --import`) into the servers bench/upload-timeline.ts starts: timestamps of every
 * step of one request, relative to its arrival, sent to the parent over IPC when its answer is
 * sent. It wraps what an upload runs through from outside the app, so the app carries no timing
 * code: sharp's header read and encodes, file writes, syncs and renames, SQLite statements, S3
 * puts, V8's collections; it counts the main thread's busy time (event loop utilisation) too.
 * Requests are taken one at a time: a step belongs to the request under way.
 */
import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { DatabaseSync, StatementSync } from 'node:sqlite';

/** One step: what it was, when it started and ended (ms since the request arrived). */
export interface Step {
  name: string;
  start: number;
  end: number;
  /** The main thread's CPU time (ms) when the step ended, since the request arrived. */
  mainCpu: number;
}

export interface TimelineMessage {
  type: 'timeline';
  url: string;
  steps: Step[];
  /** Main thread busy share over the request (event loop utilisation). */
  busy: number;
  totalMs: number;
  /** CPU of every thread of the process over the request (ms). */
  cpuMs: number;
  /** Minor page faults over the request: each is a trip to the hypervisor on this machine. */
  pageFaults: number;
}

let origin: number | undefined;
let cpuOrigin = 0;
let steps: Step[] = [];

function mainCpu(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}
let elu0 = performance.eventLoopUtilization();
let cpu0 = process.cpuUsage();
let faults0 = 0;

function record(name: string, start: number, end = performance.now()): void {
  if (origin === undefined) return;
  steps.push({ name, start: start - origin, end: end - origin, mainCpu: mainCpu() - cpuOrigin });
}

/** Wraps a method so each call (sync, or until its promise settles) is a step named by `name`. */
function wrap(target: object, method: string, name: (self: unknown, args: unknown[]) => string | undefined): void {
  const original = (target as Record<string, unknown>)[method] as (...args: unknown[]) => unknown;
  (target as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
    const label = name(this, args);
    if (label === undefined || origin === undefined) return original.apply(this, args);
    const start = performance.now();
    const result = original.apply(this, args);
    if (result instanceof Promise) {
      return result.finally(() => record(label, start));
    }
    record(label, start);
    return result;
  };
}

diagnostics.subscribe('http.server.request.start', (message) => {
  const { request } = message as { request: IncomingMessage };
  origin = performance.now();
  cpuOrigin = mainCpu();
  steps = [];
  elu0 = performance.eventLoopUtilization();
  cpu0 = process.cpuUsage();
  faults0 = process.resourceUsage().minorPageFault;
  const arrived = origin;
  // 'end' does not switch the stream into flowing mode, so the app still reads it as it does.
  request.once('end', () => record('body read', arrived));
});

// Fastify's route handler: the app's own code begins.
diagnostics.tracingChannel('fastify.request.handler').start.subscribe(() => {
  if (origin !== undefined) record('handler called', performance.now());
});

diagnostics.subscribe('http.server.response.finish', (message) => {
  const { request } = message as { request: IncomingMessage };
  if (origin === undefined) return;
  const totalMs = performance.now() - origin;
  const busy = performance.eventLoopUtilization(elu0).utilization;
  const cpu = process.cpuUsage(cpu0);
  const report: TimelineMessage = {
    type: 'timeline',
    url: request.url ?? '',
    steps,
    busy,
    totalMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    pageFaults: process.resourceUsage().minorPageFault - faults0,
  };
  origin = undefined;
  process.send?.(report);
});

// sharp, as the app imports it.
const { default: sharp } = (await import('sharp')) as unknown as { default: { prototype: object } };
const sizeOf = (self: unknown) => {
  const width = (self as { options: { width: number } }).options.width;
  return width > 0 ? `encode ${width}` : 'encode original';
};
wrap(sharp.prototype, 'metadata', () => 'header (metadata)');
wrap(sharp.prototype, 'toBuffer', (self) => sizeOf(self));

// A body gathered whole (Buffer.concat of its chunks): named only when it is a photo's size.
wrap(Buffer, 'concat', (_self, args) => {
  const size = (args[1] as number | undefined) ?? (args[0] as Buffer[]).reduce((n, b) => n + b.length, 0);
  return size >= 1e6 ? `concat ${(size / 1e6).toFixed(2)} MB` : undefined;
});

// Files: writes and syncs through a FileHandle, renames.
const handle = await fs.open('/dev/null', 'r');
const fileHandle = Object.getPrototypeOf(handle) as object;
await handle.close();
wrap(fileHandle, 'writeFile', (_self, args) => `write ${((args[0] as Buffer).length / 1e6).toFixed(2)} MB`);
wrap(fileHandle, 'sync', () => 'fsync');
wrap(fs, 'rename', () => 'rename');
syncBuiltinESMExports();

// SQLite statements (synchronous: each is a step of its own).
wrap(DatabaseSync.prototype, 'exec', (_self, args) => `sql ${String(args[0]).slice(0, 24)}`);
for (const method of ['run', 'get', 'all']) {
  wrap(StatementSync.prototype, method, (self) => `sql ${(self as { sourceSQL: string }).sourceSQL.slice(0, 24)}`);
}

// S3 commands, when the app writes to a bucket.
const { S3Client } = await import('@aws-sdk/client-s3');
wrap(S3Client.prototype, 'send', (_self, args) => `s3 ${(args[0] as object).constructor.name}`);

/** V8's collection kinds as node:perf_hooks names them (constants.NODE_PERFORMANCE_GC_*). */
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
    record(`gc ${GC_KINDS[kind] ?? kind}`, entry.startTime, entry.startTime + entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
