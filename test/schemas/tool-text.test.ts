import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { type Harness, startServer } from '../helpers/harness.ts';
import { mcpClient } from '../helpers/mcp.ts';

describe('tool results: text an assistant reads', () => {
  let h: Harness;
  let client: Client;
  before(async () => {
    h = await startServer({});
    client = await mcpClient(h.mcpUrl, h.alice.readKey);
  });
  after(async () => {
    await client?.close();
    await h?.close();
  });

  it('get_authoring_guide: the playbook markdown itself, sent once (no structured copy)', async () => {
    const result = await client.callTool({ name: 'get_authoring_guide', arguments: {} });
    const content = result.content as Array<{ type: string; text: string }>;
    assert.equal(content.length, 1);
    const text = content[0];
    assert.equal(text?.type, 'text');
    assert.ok(text.text.startsWith('#'), 'markdown, not a JSON string');
    assert.ok(text.text.includes('\n'), 'line breaks as they are, not escaped');
    assert.equal(result.structuredContent, undefined, 'hosts that prefer structured content would show a JSON string');
    assert.match(text.text, /Authoring playbook · version \S+ · API \S+/, 'the versions are in the text');
  });

  it('other tools answer their JSON as text', async () => {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    assert.deepEqual(JSON.parse(text), result.structuredContent);
  });
});
