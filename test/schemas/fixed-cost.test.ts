import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Harness, startServer } from '../helpers/harness.ts';

/**
 * What an assistant holds before it does any work (issue 18): the default connection's tools/list
 * (a write key with the publish option: every tool) and get_authoring_guide's default answer,
 * measured as the official clients receive them: the bytes of each HTTP response body once decoded
 * (JSON-RPC envelope and, where the client gets an event stream, its framing included), recorded by
 * the fetch each client transport calls. Before issue 18: 181.6 KB + 78.3 KB; the budget and why are
 * in docs/decisions/schemas-and-openapi.md ("The fixed cost before work").
 */
/**
 * Decimal kilobytes, as issue 18 counts them (181.6 KB of tools/list is 181,599 bytes). A new tool
 * pays for itself within the budget: issue 20's create_preview_link did, by update_route and
 * update_hike pointing at their create_ tool's track notes instead of repeating them.
 */
const BUDGET_TOTAL = 130_000;

interface Received {
  method: string;
  tool?: string;
  contentType: string;
  bytes: number;
}

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

interface Figures {
  toolsList: Received;
  guide: Received;
  toolCount: number;
}

type Line = '2026-07-28 (client 2.x)' | '2025 (sdk 1.x)';

async function measure(line: Line, mcpUrl: string, key: string): Promise<Figures> {
  const log: Received[] = [];
  const options = { requestInit: { headers: { authorization: `Bearer ${key}` } }, fetch: recordingFetch(log) };
  const client =
    line === '2025 (sdk 1.x)'
      ? new Client1({ name: 'fixed-cost', version: '1.0.0' })
      : new Client({ name: 'fixed-cost', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport =
    line === '2025 (sdk 1.x)'
      ? new Transport1(new URL(mcpUrl), options)
      : new StreamableHTTPClientTransport(new URL(mcpUrl), options);
  // Two client lines, one shape of calls: the 1.x classes are driven through the 2.x types.
  await (client as Client).connect(transport as StreamableHTTPClientTransport);
  try {
    const { tools } = await (client as Client).listTools();
    const result = await (client as Client).callTool({ name: 'get_authoring_guide', arguments: {} });
    assert.notEqual(result.isError, true);
    const toolsList = log.find((r) => r.method === 'tools/list');
    const guide = log.find((r) => r.method === 'tools/call' && r.tool === 'get_authoring_guide');
    assert.ok(toolsList && guide, `${line}: both answers recorded (${JSON.stringify(log)})`);
    return { toolsList, guide, toolCount: tools.length };
  } finally {
    await (client as Client).close();
  }
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;

describe('the fixed cost before work: tools/list and get_authoring_guide as clients receive them', () => {
  let h: Harness;
  const figures = new Map<Line, Figures>();
  before(async () => {
    h = await startServer({});
    for (const line of ['2026-07-28 (client 2.x)', '2025 (sdk 1.x)'] as const) {
      figures.set(line, await measure(line, h.mcpUrl, h.alice.publishKey));
    }
    const read = await measure('2025 (sdk 1.x)', h.mcpUrl, h.alice.readKey);
    process.stdout.write(
      `# a read key (sdk 1.x): tools/list ${kb(read.toolsList.bytes)} (${read.toolCount} tools), ` +
        `get_authoring_guide ${kb(read.guide.bytes)}\n`,
    );
    for (const [line, f] of figures) {
      process.stdout.write(
        `# ${line}: tools/list ${kb(f.toolsList.bytes)} (${f.toolCount} tools, ${f.toolsList.contentType}), ` +
          `get_authoring_guide ${kb(f.guide.bytes)} (${f.guide.contentType}), ` +
          `together ${kb(f.toolsList.bytes + f.guide.bytes)} (budget ${kb(BUDGET_TOTAL)})\n`,
      );
    }
  });
  after(async () => {
    await h?.close();
  });

  it('the two client lines receive their own framing: JSON for 2026-07-28, an event stream for 2025', () => {
    assert.match(figures.get('2026-07-28 (client 2.x)')?.toolsList.contentType ?? '', /application\/json/);
    assert.match(figures.get('2025 (sdk 1.x)')?.toolsList.contentType ?? '', /text\/event-stream/);
  });

  for (const line of ['2026-07-28 (client 2.x)', '2025 (sdk 1.x)'] as const) {
    it(`${line}: tools/list and get_authoring_guide together stay within ${kb(BUDGET_TOTAL)}`, () => {
      const f = figures.get(line);
      assert.ok(f);
      assert.equal(f.toolCount, h.app.registry.tools.length, 'every operation is a tool on the default connection');
      const total = f.toolsList.bytes + f.guide.bytes;
      assert.ok(total <= BUDGET_TOTAL, `${line}: ${total} bytes, over ${BUDGET_TOTAL}`);
    });
  }
});
