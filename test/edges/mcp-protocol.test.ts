import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpPath } from '../../src/transports/mcp-options.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';

/** JSON-RPC answers of /mcp sent as raw POSTs, and the switch for the direct path. */
async function rpc(h: Harness, body: unknown): Promise<{ status: number; message: any }> {
  const res = await fetch(h.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.alice.readKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const frame = text.split('\n').find((line) => line.startsWith('data: '));
  return { status: res.status, message: JSON.parse(frame ? frame.slice(6) : text) };
}

describe('MCP protocol edges', () => {
  let h: Harness;
  before(async () => {
    h = await startServer();
  });
  after(async () => h?.close());

  test('initialize without params, or with params of the wrong shape, is -32602 invalid params', async () => {
    for (const params of [undefined, {}, { protocolVersion: 7 }]) {
      const { message } = await rpc(h, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        ...(params !== undefined && { params }),
      });
      assert.equal(message.id, 1);
      assert.equal(message.error?.code, -32602, JSON.stringify(message));
      assert.match(message.error.message, /^Invalid params for initialize/);
    }
  });

  test('a well-formed initialize still succeeds', async () => {
    const { message } = await rpc(h, {
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'edges', version: '1' } },
    });
    assert.equal(message.result?.protocolVersion, '2025-11-25', JSON.stringify(message));
  });

  test('tools/call without params stays -32602', async () => {
    const { message } = await rpc(h, { jsonrpc: '2.0', id: 3, method: 'tools/call' });
    assert.equal(message.error?.code, -32602, JSON.stringify(message));
  });
});

describe('MCP_DIRECT switches the direct path off', () => {
  const paths: McpPath[] = [];
  let h: Harness;
  before(async () => {
    h = await startServer({ env: { MCP_DIRECT: 'false' }, observeMcp: (path) => paths.push(path) });
  });
  after(async () => h?.close());

  test('with MCP_DIRECT=false, tool calls are answered by the SDK’s entry, and work', async () => {
    const client = await mcpClient(h.mcpUrl, h.alice.writeKey);
    try {
      const made = await callTool(client, 'create_guide', { name: 'Through the SDK' });
      assert.equal(made.isError, false);
      const read = await callTool(client, 'get_guide', { productId: made.body.productId });
      assert.equal(read.body.name, 'Through the SDK');
    } finally {
      await client.close();
    }
    assert.ok(paths.length >= 2);
    assert.deepEqual([...new Set(paths)], ['sdk']);
  });
});
