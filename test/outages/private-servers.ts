import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A free TCP port on loopback (closed again before it is handed out). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stops (SIGSTOP) or resumes (SIGCONT) a process and every process it started. */
function signalTree(pid: number, signal: 'SIGSTOP' | 'SIGCONT'): void {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
  process.kill(pid, signal);
  for (const child of children) process.kill(child, signal);
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  stop(): void;
  start(): void;
  /** Every process of the cluster stopped (SIGSTOP): connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  /** Ends every client connection but the one asking (pg_terminate_backend); how many it ended. */
  terminateConnections(): Promise<number>;
  /** Stops the cluster for good and removes its folder. */
  remove(): void;
}

/**
 * A PostgreSQL cluster of the test's own, never the shared one: initdb and pg_ctl as the postgres
 * user (they refuse root) in a temporary folder, on a free loopback port.
 */
export async function privatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'creator-api-pg-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  const data = join(dir, 'data');
  const asPostgres = (...args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'pipe', encoding: 'utf8' });
  asPostgres('initdb', '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync');
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let frozen = false;
  let removed = false;
  const postmaster = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const cluster: PrivatePostgres = {
    url,
    start: () => void asPostgres('pg_ctl', '-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'),
    stop: () => void asPostgres('pg_ctl', '-D', data, '-m', 'fast', '-w', 'stop'),
    freeze() {
      signalTree(postmaster(), 'SIGSTOP');
      frozen = true;
    },
    thaw() {
      signalTree(postmaster(), 'SIGCONT');
      frozen = false;
    },
    async terminateConnections() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where pid <> pg_backend_pid() and backend_type = 'client backend'`,
        );
        return rows.length;
      } finally {
        await client.end();
      }
    },
    remove() {
      if (removed) return;
      removed = true;
      if (frozen) cluster.thaw();
      try {
        asPostgres('pg_ctl', '-D', data, '-m', 'immediate', '-w', 'stop');
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  // A run cut short (a test's timeout, Ctrl-C) must not leave a frozen cluster behind.
  process.once('exit', () => cluster.remove());
  return cluster;
}

/**
 * The one process of a server the test started for itself: stopped (thawed first, so a frozen one
 * dies too), frozen and thawed; a run cut short (a test's timeout, Ctrl-C) kills it.
 */
class OwnProcess {
  child: ChildProcess | undefined;

  constructor() {
    process.once('exit', () => this.child?.kill('SIGKILL'));
  }

  async stop(): Promise<void> {
    const running = this.child;
    this.child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT');
    running.kill('SIGKILL');
    await exited;
  }

  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }
}

export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  freeze(): void;
  thaw(): void;
}

/** A redis-server of the test's own on a free loopback port, saving nothing. */
export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const own = new OwnProcess();
  const answers = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
    });
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      own.child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      await until('redis-server answers', answers);
    },
    stop: () => own.stop(),
    freeze: () => own.freeze(),
    thaw: () => own.thaw(),
  };
  await redis.start();
  return redis;
}

export interface PrivateS3 {
  endpoint: string;
  /** Starts the server (again) with the bucket made: it keeps objects in memory only. */
  start(): Promise<void>;
  stop(): Promise<void>;
  freeze(): void;
  thaw(): void;
}

const root = new URL('../..', import.meta.url).pathname;

/**
 * An S3-compatible server of the test's own (fauxqs, as test/helpers/blob-stores.ts builds it) in a
 * process of its own on a free loopback port, so that it can be stopped and frozen.
 */
export async function privateS3(makeBucket: (endpoint: string) => Promise<void>): Promise<PrivateS3> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const script = `
    import { buildApp } from 'fauxqs';
    const app = buildApp({ logger: false });
    await app.listen({ host: '127.0.0.1', port: Number(process.argv[1]) });
    process.stdout.write('listening\\n');`;
  const own = new OwnProcess();
  const s3: PrivateS3 = {
    endpoint,
    async start() {
      const started = spawn(process.execPath, ['--input-type=module', '-e', script, String(port)], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      own.child = started;
      await new Promise<void>((resolve, reject) => {
        started.stdout?.once('data', () => resolve());
        started.once('exit', (code) => reject(new Error(`the S3 server exited (${code})`)));
      });
      await makeBucket(endpoint);
    },
    stop: () => own.stop(),
    freeze: () => own.freeze(),
    thaw: () => own.thaw(),
  };
  await s3.start();
  return s3;
}
