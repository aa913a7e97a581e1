import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { AnyOperation } from '../../src/core/operation.ts';
import { apiFor } from '../helpers/api.ts';
import { exampleStory, studioFor, uploadExample } from '../helpers/example-story.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { mcpClient } from '../helpers/mcp.ts';

describe('tool results: text an assistant reads', () => {
  let h: Harness;
  let client: Client;
  before(async () => {
    h = await startServer({});
    client = await mcpClient(h.mcpUrl, h.alice.publishKey);
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

  it('every tool answers once, as text: the JSON REST answers, with no structured copy', async () => {
    const restApi = apiFor(h, 'rest', h.alice.publishKey);
    const compared: string[] = [];
    const call = async (op: AnyOperation, input: Record<string, unknown>) => {
      // The uploads are REST only: the photos the media tools work on arrive that way.
      if (op.restOnly) return uploadExample(h.baseUrl, h.alice.publishKey, op, input);
      const result = await client.callTool({ name: op.name, arguments: input });
      const content = result.content as Array<{ type: string; text: string }>;
      assert.notEqual(result.isError, true, `${op.name}: ${content[0]?.text}`);
      assert.equal(result.structuredContent, undefined, `${op.name}: no structured copy`);
      assert.equal(content.length, 1, `${op.name}: one content block`);
      assert.equal(content[0]?.type, 'text', op.name);
      const text = content[0]?.text ?? '';
      if (op.name === 'get_authoring_guide') return { markdown: text };
      const answer = JSON.parse(text) as Record<string, unknown>;
      // A read that changes nothing answers REST the same record: the text is its body, byte for byte.
      if (op.readOnly && op.method === 'GET') {
        const viaRest = await restApi.call(op.name, input);
        assert.equal(viaRest.status, 200, `${op.name}: ${JSON.stringify(viaRest.body)}`);
        // A cursor and a download address are sealed afresh at every issue (a new nonce each time):
        // the same page or file, another seal.
        const unsealed = (json: string) =>
          json.replace(/"nextCursor":"[^"]+"/, '"nextCursor":"…"').replace(/\/downloads\/[\w-]+"/, '/downloads/…"');
        assert.equal(unsealed(text), unsealed(JSON.stringify(viaRest.body)), `${op.name}: the text is REST's body`);
        compared.push(op.name);
      }
      return answer;
    };
    try {
      await exampleStory(h.app.registry.operations, call, new Map(), studioFor(h.store.db));
    } finally {
      await restApi.close();
    }
    const reads = h.app.registry.tools.filter((op) => op.readOnly && op.method === 'GET' && !op.restOnly);
    assert.ok(reads.length > 15, 'the reads are many');
    assert.deepEqual(
      [...new Set(compared)].sort(),
      reads
        .map((op) => op.name)
        .filter((name) => name !== 'get_authoring_guide')
        .sort(),
      'every read was compared with REST',
    );
  });
});
