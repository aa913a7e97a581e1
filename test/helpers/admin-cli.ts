import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { promisify } from 'node:util';
import pino from 'pino';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/core/clock.ts';
import { openStore, type Store } from '../../src/store.ts';
import { rest } from './http.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const CLI = join(ROOT, 'src/admin/cli.ts');
const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The server the command line's effects are checked through, on the same DATA_DIR. */
export const world = {} as { dataDir: string; store: Store; app: App; baseUrl: string; mcpUrl: string };

/** Starts the server for the enclosing suite (before) and stops it (after). */
export function useAdminServer(): void {
  before(async () => {
    world.dataDir = mkdtempSync(join(tmpdir(), 'creator-api-admin-'));
    // The command line is another process; its revocations show at once, key cache and all.
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: world.dataDir, LOG_LEVEL: 'silent' });
    world.store = await openStore({ databaseUrl: undefined, dataDir: config.dataDir });
    world.app = buildApp({ config, store: world.store, clock: systemClock, logger: pino({ level: 'silent' }) });
    const address = await world.app.listen('127.0.0.1', 0);
    world.baseUrl = `${address}/api/v1`;
    world.mcpUrl = `${address}/mcp`;
  });
  after(async () => {
    await world.app.close();
    await world.store.close();
    rmSync(world.dataDir, { recursive: true, force: true });
  });
}

/**
 * The real command line in a process of its own, on the store `env` names (DATA_DIR, DATABASE_URL;
 * the embedded store unless it names PostgreSQL). It migrates at its start, like a server.
 */
export async function runAdmin(env: Record<string, string | undefined>, ...args: string[]): Promise<CliResult> {
  const full = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env };
  try {
    const { stdout, stderr } = await run(NODE, [CLI, ...args], { cwd: ROOT, env: full });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** A command on the store `env` names that must succeed; its JSON output. */
export async function adminJson<T = Record<string, unknown>>(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<T> {
  const result = await runAdmin(env, ...args);
  assert.equal(result.code, 0, `admin ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** The real command line in its own process, on the same DATA_DIR as the server. */
export function cli(...args: string[]): Promise<CliResult> {
  return runAdmin({ DATA_DIR: world.dataDir }, ...args);
}

/** A command that must succeed; its JSON output. */
export async function ok<T = unknown>(...args: string[]): Promise<T> {
  const result = await cli(...args);
  assert.equal(result.code, 0, `admin ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** A command that must fail with exit code 1, nothing on stdout and a message on stderr. */
export async function fails(pattern: RegExp, ...args: string[]): Promise<void> {
  const result = await cli(...args);
  assert.equal(result.code, 1, `admin ${args.join(' ')} should exit 1; stdout: ${result.stdout}`);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, pattern);
}

let emails = 0;

/** How many creators newCreator made: the last one is `Creator <n>`, `creator<n>@example.com`. */
export function creatorsMade(): number {
  return emails;
}

export async function newCreator(...extra: string[]): Promise<string> {
  emails += 1;
  const { creatorId } = await ok<{ creatorId: string }>(
    'creator',
    'create',
    '--email',
    `creator${emails}@example.com`,
    '--name',
    `Creator ${emails}`,
    ...extra,
  );
  assert.match(creatorId, /^cr_/);
  return creatorId;
}

export async function newKey(creatorId: string, ...extra: string[]): Promise<{ keyId: string; key: string }> {
  return ok('key', 'create', '--creator', creatorId, ...extra);
}

export async function newGuide(key: string, name = 'Dolomites'): Promise<string> {
  const created = await rest(world.baseUrl, key, 'POST', '/guides', { name });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.productId as string;
}
