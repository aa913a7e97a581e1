import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Harness, startServer } from '../helpers/harness.ts';
import { type Received, type ReceivingLine, receivingClient, receivingLines } from '../helpers/received.ts';

/**
 * What an assistant holds before it does any work (issue 18): the default connection's tools/list
 * (a write key with the publish option: every tool) and get_authoring_guide's default answer,
 * measured as the official clients receive them (test/helpers/received.ts). Before issue 18:
 * 181.6 KB + 78.3 KB; the budget and why are in docs/decisions/schemas-and-openapi.md ("The fixed
 * cost before work").
 */
/**
 * Decimal kilobytes, as issue 18 counts them (181.6 KB of tools/list is 181,599 bytes). A new tool
 * pays for itself within the budget: issue 20's create_preview_link did, by update_route and
 * update_hike pointing at their create_ tool's track notes instead of repeating them.
 */
// 131 KB since issue 29's list_changes and undo_changes (1.2 KB, left 0.7 KB over 130 KB after trimming
// their own text): the lead decides whether to pay with the knobs named in the decisions file instead.
const BUDGET_TOTAL = 131_000;

interface Figures {
  toolsList: Received;
  guide: Received;
  toolCount: number;
}

async function measure(line: ReceivingLine, mcpUrl: string, key: string): Promise<Figures> {
  const log: Received[] = [];
  const client = await receivingClient(line, mcpUrl, key, log);
  try {
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: 'get_authoring_guide', arguments: {} });
    assert.notEqual(result.isError, true);
    const toolsList = log.find((r) => r.method === 'tools/list');
    const guide = log.find((r) => r.method === 'tools/call' && r.tool === 'get_authoring_guide');
    assert.ok(toolsList && guide, `${line}: both answers recorded (${JSON.stringify(log)})`);
    return { toolsList, guide, toolCount: tools.length };
  } finally {
    await client.close();
  }
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;

describe('the fixed cost before work: tools/list and get_authoring_guide as clients receive them', () => {
  let h: Harness;
  const figures = new Map<ReceivingLine, Figures>();
  before(async () => {
    h = await startServer({});
    for (const line of receivingLines) {
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

  for (const line of receivingLines) {
    it(`${line}: tools/list and get_authoring_guide together stay within ${kb(BUDGET_TOTAL)}`, () => {
      const f = figures.get(line);
      assert.ok(f);
      assert.equal(f.toolCount, h.app.registry.tools.length, 'every operation is a tool on the default connection');
      const total = f.toolsList.bytes + f.guide.bytes;
      assert.ok(total <= BUDGET_TOTAL, `${line}: ${total} bytes, over ${BUDGET_TOTAL}`);
    });
  }
});
