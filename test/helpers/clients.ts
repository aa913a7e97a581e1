import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Api, apiFor, type Transport, transports } from './api.ts';
import type { Harness } from './harness.ts';
import { answerOf } from './mcp.ts';

/**
 * Every client a suite can speak through: REST, the MCP 2.x client (`mcp`) and the 1.x SDK client
 * most deployed assistants run (`mcp1`), each answer read from its text as a model reads it.
 */
export type ClientLine = Transport | 'mcp1';
export const clientLines: ClientLine[] = [...transports, 'mcp1'];

/** Calls operations through the 1.x SDK client, answering as apiFor's MCP line does. */
function sdk1Api(h: Harness, key: string): Api {
  let client: Sdk1Client | undefined;
  return {
    async call(name, args = {}) {
      if (!client) {
        client = new Sdk1Client({ name: 'creator-api-tests-sdk1', version: '1.0.0' });
        await client.connect(
          new Sdk1Transport(new URL(h.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
        );
      }
      const { isError, body } = answerOf(await client.callTool({ name, arguments: args }));
      return { ok: !isError, status: undefined, body };
    },
    async close() {
      await client?.close();
    },
  };
}

/** A client of that line with this key. */
export function clientFor(h: Harness, line: ClientLine, key: string): Api {
  return line === 'mcp1' ? sdk1Api(h, key) : apiFor(h, line, key);
}

/** Runs `work` with a client of that line, closed afterwards whatever happens. */
export async function withClient<T>(
  h: Harness,
  line: ClientLine,
  key: string,
  work: (api: Api) => Promise<T>,
): Promise<T> {
  const api = clientFor(h, line, key);
  try {
    return await work(api);
  } finally {
    await api.close();
  }
}
