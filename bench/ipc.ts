import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The allocator settings `npm start` gives the server (`NAME=${NAME:-default}` in package.json,
 * this checkout's or another's), where this environment sets none: servers started here measure
 * what `npm start` runs.
 */
export function npmStartEnv(
  packageJson: string | URL = new URL('../package.json', import.meta.url),
): Record<string, string> {
  const pkg = JSON.parse(readFileSync(packageJson ?? new URL('../package.json', import.meta.url), 'utf8'));
  const env: Record<string, string> = {};
  for (const [, name, fallback] of String(pkg.scripts.start).matchAll(/(\w+)=\$\{\w+:-([^}]*)\}/g)) {
    env[name as string] = process.env[name as string] ?? (fallback as string);
  }
  return env;
}

/**
 * An app under test: a SQLite store (DATABASE_URL and REDIS_URL cleared), silent, every rate limit
 * lifted: the bench measures speed, not the limits.
 */
export const BENCH_APP_ENV: Record<string, string> = {
  DATABASE_URL: '',
  REDIS_URL: '',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_KEY_PER_MINUTE: '1000000000',
  RATE_LIMIT_CREATOR_PER_HOUR: '1000000000',
  RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000000',
};

/** What a bench child tells its parent once it listens. */
export interface ReadyMessage {
  type: 'ready';
  origin: string;
  key?: string;
  /** A key of another creator (the app server makes two). */
  otherKey?: string;
  /** Keys of further creators (BENCH_CREATORS), one per simulated assistant of the mixed load. */
  keys?: string[];
  dialect?: string;
}

export interface Child {
  name: string;
  ready: ReadyMessage;
  process: ChildProcess;
  /** Asks the child to close and exit; kills it (by its pid) if it has not within the grace time. */
  stop(graceMs?: number): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 60_000;

/**
 * Child side: run `close` once on { type: 'stop' }, when the parent disappears or on Ctrl-C, then
 * exit normally (so `node --cpu-prof` writes its profile).
 */
export function onStop(close: () => Promise<void>): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    let code = 0;
    try {
      await close();
    } catch (err) {
      process.stderr.write(`bench child: close failed: ${(err as Error).message}\n`);
      code = 1;
    }
    process.exit(code);
  };
  process.on('message', (m: { type?: string }) => {
    if (m?.type === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  process.on('SIGINT', () => void stop());
}

/** How a child is run: another program in front of Node (valgrind), Node's own flags, its directory. */
export interface RunWith {
  execPath?: string;
  execArgv?: string[];
  cwd?: string;
  /** How long it may take to report ready (default a minute; far longer under valgrind). */
  startupTimeoutMs?: number;
}

/**
 * Parent side: fork a bench/*.ts child (relative to this folder, or an absolute path: another
 * checkout's) on this Node and wait for its ready message.
 */
export function startChild(
  name: string,
  file: string,
  env: Record<string, string>,
  runWith: RunWith = {},
): Promise<Child> {
  const path = fileURLToPath(new URL(file, import.meta.url));
  const { startupTimeoutMs = STARTUP_TIMEOUT_MS, ...how } = runWith;
  const child = fork(path, [], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ...how,
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ type: 'stop' });
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name}: not ready within ${startupTimeoutMs / 1000} s`));
    }, startupTimeoutMs);
    const early = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited before it was ready (code ${code}, signal ${signal})`));
    };
    child.once('exit', early);
    child.on('message', (m: ReadyMessage) => {
      if (m?.type !== 'ready') return;
      clearTimeout(timer);
      child.off('exit', early);
      resolve({ name, ready: m, process: child, stop });
    });
  });
}
