import { type ChildProcess, spawn } from 'node:child_process';
import { npmStartEnv } from '../../bench/ipc.ts';

const root = new URL('../..', import.meta.url).pathname;

export interface Started {
  child: ChildProcess;
  /** Standard output and standard error, interleaved as they came. */
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  base: string;
  exited: Promise<number | null>;
}

/** `node src/main.ts` as `npm start` runs it, in its own process, without waiting for it to listen. */
export function spawnService(dataDir: string, env: Record<string, string> = {}): Omit<Started, 'base'> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...npmStartEnv(),
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk;
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => out, stdout: () => stdout, stderr: () => stderr, exited };
}

const REST_LINE = /REST\s+(http:\/\/\S+)\/api\/v1/;

/** A service that printed no banner in time (or exited first); `pid` names the process, stopped by then. */
export class ServiceDidNotStart extends Error {
  readonly pid: number | undefined;

  constructor(output: string, pid: number | undefined) {
    super(`service did not start:\n${output}`);
    this.pid = pid;
  }
}

/**
 * The service on a port of its own, once it printed its addresses (and key) and listens. One that
 * has not by `timeoutMs` is killed and waited for before the error is thrown, so no process outlives
 * the test that started it.
 */
export async function startService(
  dataDir: string,
  env: Record<string, string> = {},
  { timeoutMs = 20_000 }: { timeoutMs?: number } = {},
): Promise<Started> {
  const started = spawnService(dataDir, env);
  const deadline = Date.now() + timeoutMs;
  // The banner is one write; wait for its closing blank line so the key line is there too.
  while (!(REST_LINE.test(started.output()) && /\n\n$/.test(started.stdout()))) {
    if (Date.now() > deadline || started.child.exitCode !== null) {
      if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
      await started.exited;
      throw new ServiceDidNotStart(started.output(), started.child.pid);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const base = REST_LINE.exec(started.output())?.[1] as string;
  return { ...started, base };
}
