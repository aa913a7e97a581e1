import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { rest } from '../helpers/http.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';
import type { Started } from '../helpers/service.ts';

/**
 * What a call answered over REST (status and headers) or MCP: a tool result (no status), or the
 * HTTP answer to a request refused before the tool ran (a status, headers the SDK does not show).
 */
export interface CallAnswer {
  transport: 'rest' | 'mcp';
  status: number | undefined;
  headers: Headers | undefined;
  body: any;
  ok: boolean;
}

/** `list_guides` and `create_guide` over either transport against a running service, with one key. */
export interface Caller {
  listGuides(transport: 'rest' | 'mcp'): Promise<CallAnswer>;
  /** `create_guide`: over REST by default. */
  createGuide(name: string, transport?: 'rest' | 'mcp'): Promise<CallAnswer>;
  close(): Promise<void>;
}

/** The demo key a fresh service printed in its banner. */
export function demoKeyOf(service: Started): string {
  const key = /Demo key (sk_service_\S+)/.exec(service.stdout())?.[1];
  assert.ok(key, service.output());
  return key;
}

export function callerOf(origin: string, key: string): Caller {
  let client: Client | undefined;
  const base = `${origin}/api/v1`;
  const routes: Record<string, [string, string, number]> = {
    list_guides: ['GET', '/guides', 200],
    create_guide: ['POST', '/guides', 201],
  };
  const call = async (transport: 'rest' | 'mcp', name: string, args: Record<string, unknown>): Promise<CallAnswer> => {
    if (transport === 'rest') {
      const [method, path, success] = routes[name] as [string, string, number];
      const r = await rest(base, key, method, path, method === 'GET' ? undefined : args);
      return { transport, status: r.status, headers: r.headers, body: r.body, ok: r.status === success };
    }
    try {
      client ??= await mcpClient(`${origin}/mcp`, key);
      const r = await callTool(client, name, args);
      return { transport, status: undefined, headers: undefined, body: r.body, ok: !r.isError };
    } catch (err) {
      // Refused before the tool ran (the key could not be read): the HTTP answer, as for a 401.
      const data = (err as { data?: { status?: number; text?: string } }).data;
      if (data?.status === undefined || data.text === undefined) throw err;
      client = undefined;
      return { transport, status: data.status, headers: undefined, body: JSON.parse(data.text), ok: false };
    }
  };
  return {
    listGuides: (transport) => call(transport, 'list_guides', {}),
    createGuide: (name, transport = 'rest') => call(transport, 'create_guide', { name }),
    close: async () => client?.close(),
  };
}

/**
 * "Try again": the envelope alone, code rate_limited with retryAfterMs; over REST status 503 (so that
 * a proxy tries another instance) and Retry-After in whole seconds.
 */
export function assertTryAgain(answer: CallAnswer, what: RegExp): void {
  const json = JSON.stringify(answer.body);
  assert.equal(answer.ok, false, `${answer.transport}: expected a refusal, got ${json}`);
  assert.deepEqual(Object.keys(answer.body), ['error'], json);
  const { error } = answer.body;
  assert.equal(error.code, 'rate_limited', json);
  assert.match(error.message, what);
  assert.ok(Number.isInteger(error.retryAfterMs) && error.retryAfterMs > 0, json);
  if (answer.status !== undefined) assert.equal(answer.status, 503, json);
  if (answer.transport === 'rest') {
    assert.equal(answer.headers?.get('retry-after'), String(Math.ceil(error.retryAfterMs / 1000)));
  }
}

/**
 * Why a dialect's outage suite is skipped: TEST_DIALECTS leaves it out (its servers are the suite's
 * own, so the shared PostgreSQL being reachable does not matter).
 */
export function leftOut(dialect: 'sqlite' | 'postgres'): string | false {
  const wanted = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
  return wanted.includes(dialect) ? false : `TEST_DIALECTS leaves ${dialect} out`;
}

/** GET /readyz: its status and body. */
export async function readyz(origin: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${origin}/readyz`);
  return { status: res.status, body: await res.json() };
}

export async function healthz(origin: string): Promise<number> {
  return (await fetch(`${origin}/healthz`)).status;
}

/** Polls `probe` until it holds, within `timeoutMs`; fails naming what never came. */
export async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
