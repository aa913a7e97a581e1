import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnyOperation } from '../../src/core/operation.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { exampleStory, studioFor, uploadExample } from './story.ts';

/**
 * The 1.x SDK client (what most deployed assistants run) validates every structured answer
 * against the tool's output schema with a draft-07 validator. Every tool is called through it with
 * its declared example, so a schema construct it reads differently fails here, not in their hands.
 */
describe('every tool through the 1.x MCP SDK client', () => {
  let h: Harness;
  let client: Client;
  before(async () => {
    h = await startServer({});
    client = new Client({ name: 'sdk1-tests', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(h.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${h.alice.publishKey}` } },
    });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    await h?.close();
  });

  it('answers every tool with its example, output schemas checked', async () => {
    const { tools } = await client.listTools();
    const outputSchemas = new Map(tools.map((t) => [t.name, t.outputSchema as object]));
    const draft2020 = new Ajv2020({ strict: true });
    assert.deepEqual(tools.map((t) => t.name).sort(), h.app.registry.tools.map((op) => op.name).sort());
    const call = async (op: AnyOperation, input: Record<string, unknown>) => {
      // The uploads are REST only: the photos the media tools work on arrive that way.
      if (op.restOnly) return uploadExample(h.baseUrl, h.alice.publishKey, op, input);
      const result = await client.callTool({ name: op.name, arguments: input });
      const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
      assert.notEqual(result.isError, true, `${op.name}: ${text}`);
      assert.ok(result.structuredContent, `${op.name} answers structured content`);
      // The client above checked it with draft-07; a 2020-12 validator reads the schema alike.
      const valid = draft2020.compile(outputSchemas.get(op.name) ?? {});
      assert.ok(valid(result.structuredContent), `${op.name}: ${JSON.stringify(valid.errors)}`);
      return result.structuredContent as Record<string, unknown>;
    };
    await exampleStory(h.app.registry.operations, call, new Map(), studioFor(h.store.db));
  });
});
