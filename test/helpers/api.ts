import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { Answer } from './answers.ts';
import { type TestDialect, testDialects } from './dialects.ts';
import { type Harness, type HarnessOptions, startServer } from './harness.ts';
import { rest } from './http.ts';
import { callTool, mcpClient } from './mcp.ts';

/** One operation call over either transport, the way each suite exercises REST and MCP alike. */
export type Transport = 'rest' | 'mcp';
export const transports: Transport[] = ['rest', 'mcp'];

export interface Api {
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
  close(): Promise<void>;
}

/** Calls an operation by name the way a client of that transport would. */
export function apiFor(h: Harness, transport: Transport, key: string): Api {
  let client: Client | undefined;
  return {
    async call(name, args = {}) {
      const op = h.app.registry.get(name);
      assert.ok(op, `operation ${name} is registered`);
      if (transport === 'mcp') {
        client ??= await mcpClient(h.mcpUrl, key);
        const r = await callTool(client, name, args);
        return { ok: !r.isError, status: undefined, body: r.body };
      }
      const fields: Record<string, unknown> = { ...args };
      let path = op.path;
      for (const p of op.pathParams) {
        path = path.replace(`{${p}}`, encodeURIComponent(String(fields[p])));
        delete fields[p];
      }
      let body: unknown = fields;
      if (op.method === 'GET' || op.method === 'DELETE') {
        const qs = new URLSearchParams(
          Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)]),
        ).toString();
        if (qs) path += `?${qs}`;
        body = undefined;
      }
      const r = await rest(h.baseUrl, key, op.method, path, body);
      return { ok: r.status < 300, status: r.status, body: r.body };
    },
    async close() {
      await client?.close();
    },
  };
}

/** Rate limits out of the way of a test that makes many calls with one key. */
export const noRateLimits = { RATE_LIMIT_KEY_PER_MINUTE: '1000000', RATE_LIMIT_CREATOR_PER_HOUR: '10000000' };

export interface ServerSuite {
  /** The suite's server; set once its `before` ran. */
  readonly h: Harness;
  /** A client per transport with Alice's write key. */
  readonly apis: Record<Transport, Api>;
}

/**
 * For the enclosing suite: a server and a client per transport with Alice's write key. Registers
 * the suite's `before` and `after`.
 */
export function useServer(options: HarnessOptions): ServerSuite {
  const suite = { apis: {} } as { h: Harness; apis: Record<Transport, Api> };
  before(async () => {
    suite.h = await startServer(options);
    for (const t of transports) suite.apis[t] = apiFor(suite.h, t, suite.h.alice.writeKey);
  });
  after(async () => {
    for (const t of transports) await suite.apis[t]?.close();
    await suite.h?.close();
  });
  return suite;
}

/** A suite's server on one of the test dialects. */
export interface DialectSuite extends ServerSuite {
  readonly dialect: TestDialect;
}

/**
 * The preamble of a suite over both transports: for each test dialect a block "`title` (dialect)"
 * with its server, a block "over rest|mcp" per transport filled by `eachTransport`, then what
 * `acrossTransports` adds (tests comparing the transports, or needing only one). `prepare` makes the
 * suite they are handed from the server's, registering what it sets up before them.
 */
export async function describeOverTransports<S extends DialectSuite = DialectSuite>(
  title: string,
  eachTransport: (suite: S, t: Transport) => void,
  acrossTransports?: (suite: S) => void,
  prepare: (server: DialectSuite) => S = (server) => server as S,
): Promise<void> {
  for (const { dialect, skip } of await testDialects()) {
    describe(`${title} (${dialect})`, { skip }, () => {
      const server = useServer({ dialect });
      const suite = prepare({
        get h() {
          return server.h;
        },
        apis: server.apis,
        dialect,
      });
      for (const t of transports) describe(`over ${t}`, () => eachTransport(suite, t));
      acrossTransports?.(suite);
    });
  }
}
