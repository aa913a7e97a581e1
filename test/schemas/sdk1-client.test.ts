import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnyOperation } from '../../src/core/operation.ts';
import { jsonSchemaOf } from '../../src/transports/json-schema.ts';
import { exampleStory, studioFor, uploadExample } from '../helpers/example-story.ts';
import { type Harness, startServer } from '../helpers/harness.ts';

/**
 * The 1.x SDK client (what most deployed assistants run), every tool called through it with its
 * declared example. Tools declare no output schema (docs/decisions/schemas-and-openapi.md, "The
 * fixed cost before work") and answer once, as text (docs/decisions/transports.md, "One copy of
 * each answer"): each answer's text is parsed and checked here against the operation's full answer
 * schema, with a draft-07 validator as that client's and with a 2020-12 one; a document (the
 * playbook) arrives as its markdown alone.
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

  it('answers every tool with its example, each answer checked against its full schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), h.app.registry.tools.map((op) => op.name).sort());
    assert.ok(
      tools.every((t) => t.outputSchema === undefined),
      'no output schemas',
    );
    const draft07 = new Ajv({ strict: false });
    const draft2020 = new Ajv2020({ strict: false });
    const call = async (op: AnyOperation, input: Record<string, unknown>) => {
      // The uploads are REST only: the photos the media tools work on arrive that way.
      if (op.restOnly) return uploadExample(h.baseUrl, h.alice.publishKey, op, input);
      const result = await client.callTool({ name: op.name, arguments: input });
      const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
      assert.notEqual(result.isError, true, `${op.name}: ${text}`);
      assert.equal(result.structuredContent, undefined, `${op.name}: the answer is sent once, as its text`);
      if (text.startsWith('#')) return { markdown: text };
      const answer = JSON.parse(text) as Record<string, unknown>;
      const schema = jsonSchemaOf(op.output, 'output');
      for (const validator of [draft07, draft2020]) {
        const valid = validator.compile(schema);
        assert.ok(valid(answer), `${op.name}: ${JSON.stringify(valid.errors)}`);
      }
      return answer;
    };
    await exampleStory(h.app.registry.operations, call, new Map(), studioFor(h.store.db));
  });
});
