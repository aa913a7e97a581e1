import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * MCP answers as the official clients receive them: the bytes of each HTTP response body once
 * decoded (JSON-RPC envelope and, where the client gets an event stream, its framing included),
 * recorded by the fetch each client transport calls.
 */

/** One answered JSON-RPC request. */
export interface Received {
  method: string;
  tool?: string;
  contentType: string;
  bytes: number;
}

/** The two client lines: the 2.x client on the modern revision (JSON), the 1.x SDK on 2025 (an event stream). */
export type ReceivingLine = '2026-07-28 (client 2.x)' | '2025 (sdk 1.x)';
export const receivingLines: readonly ReceivingLine[] = ['2026-07-28 (client 2.x)', '2025 (sdk 1.x)'];

/** A fetch that records every answered JSON-RPC request with the size of its decoded body. */
function recordingFetch(log: Received[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    if (sent && typeof sent === 'object' && !Array.isArray(sent) && 'method' in sent) {
      const { method, params } = sent as { method: string; params?: { name?: string } };
      const body = Buffer.from(await response.clone().arrayBuffer());
      log.push({
        method,
        ...(params?.name !== undefined && { tool: params.name }),
        contentType: response.headers.get('content-type') ?? '',
        bytes: body.length,
      });
    }
    return response;
  };
}

/**
 * A connected client of that line with this key, whose answers are pushed onto `log`. The 1.x
 * classes are driven through the 2.x types: two client lines, one shape of calls.
 */
export async function receivingClient(
  line: ReceivingLine,
  mcpUrl: string,
  key: string,
  log: Received[],
): Promise<Client> {
  const options = { requestInit: { headers: { authorization: `Bearer ${key}` } }, fetch: recordingFetch(log) };
  const client =
    line === '2025 (sdk 1.x)'
      ? new Client1({ name: 'receiving-sdk1', version: '1.0.0' })
      : new Client({ name: 'receiving', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport =
    line === '2025 (sdk 1.x)'
      ? new Transport1(new URL(mcpUrl), options)
      : new StreamableHTTPClientTransport(new URL(mcpUrl), options);
  await (client as Client).connect(transport as StreamableHTTPClientTransport);
  return client as Client;
}
