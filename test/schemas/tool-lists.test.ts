import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { placeKinds, placeTypes } from '../../src/resources/facilities/facility.schema.ts';
import { createRegistry } from '../../src/resources/index.ts';
import { socialHosts } from '../../src/resources/profile/profile.schema.ts';
import { isFixedListNote } from '../../src/shared/notes.ts';
import { buildOpenApi } from '../../src/transports/openapi.ts';
import { describeTool, describeTools, type ToolDescription } from '../../src/transports/tool-list.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';

const registry = createRegistry();
const listed = describeTools(registry.tools);

/** Every description in a schema. */
function notesOf(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) {
    for (const item of schema) notesOf(item, out);
  } else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'description' && typeof value === 'string') out.push(value);
      else notesOf(value, out);
    }
  }
  return out;
}

function allNotes(tool: ToolDescription): Set<string> {
  return new Set(notesOf(tool.inputSchema));
}

describe('tools/list says each field note once', () => {
  it('a note a tool leaves out is in a tool its description names', () => {
    const byName = new Map(listed.map((t) => [t.name, t]));
    let left = 0;
    for (const tool of listed) {
      const full = describeTool(registry.get(tool.name) as (typeof registry.operations)[number]);
      const kept = allNotes(tool);
      const missing = [...allNotes(full)].filter((note) => !kept.has(note));
      const named = /Field notes: ([\w, ]+)\.$/.exec(tool.description)?.[1]?.split(', ') ?? [];
      assert.equal(
        missing.length > 0,
        named.length > 0,
        `${tool.name}: names where its notes are when it left some out`,
      );
      for (const note of missing) {
        left += 1;
        assert.ok(
          named.some((name) => byName.get(name) && allNotes(byName.get(name) as ToolDescription).has(note)),
          `${tool.name}: "${note}" is in none of ${named.join(', ')}`,
        );
      }
      // Only notes move: every type, fixed list, limit and required marker stays in every tool.
      assert.deepEqual(withoutNotes(tool.inputSchema), withoutNotes(full.inputSchema), tool.name);
    }
    assert.ok(left > 100, `${left} notes said once instead of again`);
    const update = byName.get('update_spot');
    assert.match(update?.description ?? '', /Field notes: create_spot(, \w+)*\.$/);
  });

  it('notes that name a fixed list depending on another field stay with the field in every tool', () => {
    for (const name of ['create_facility', 'update_facility']) {
      const tool = listed.find((t) => t.name === name);
      assert.ok(tool, name);
      const fields = tool.inputSchema.properties as Record<string, { description?: string }>;
      const note = fields.type?.description ?? '';
      assert.ok(isFixedListNote(note), name);
      for (const kind of placeKinds) {
        const list: string[] | undefined = new RegExp(`${kind}: ([a-z_, ]+)`).exec(note)?.[1]?.split(', ');
        assert.deepEqual(list, [...placeTypes[kind]], `${name} ${kind}`);
      }
    }
    const socials = listed.find((t) => t.name === 'set_profile_socials')?.inputSchema as any;
    const url: string = socials.properties.socials.items.properties.url.description;
    for (const [platform, hosts] of Object.entries(socialHosts)) {
      for (const host of hosts) assert.ok(url.includes(host), `${platform} ${host}`);
    }
    for (const tool of listed) {
      const full = describeTool(registry.get(tool.name) as (typeof registry.operations)[number]);
      const kept = allNotes(tool);
      for (const note of allNotes(full)) if (isFixedListNote(note)) assert.ok(kept.has(note), `${tool.name}: ${note}`);
    }
  });

  it('the OpenAPI document says the same fixed lists where it shows the fields', () => {
    const doc = JSON.stringify(buildOpenApi(registry, 'http://127.0.0.1:8080'));
    for (const kind of placeKinds) assert.ok(doc.includes(`${kind}: ${placeTypes[kind].join(', ')}`), kind);
    for (const [platform, hosts] of Object.entries(socialHosts)) {
      assert.ok(doc.includes(`${platform} ${hosts.join(' or ')}`), platform);
    }
  });
});

function withoutNotes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNotes);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutNotes(value)]),
  );
}

/** A value of a path parameter that names nothing: a number where the parameter is one (a release). */
function unknownValueOf(op: (typeof registry.tools)[number], param: string): unknown {
  const shape = op.input.shape as Record<string, { def: { type: string } }>;
  return shape[param]?.def.type === 'number' ? 999_999 : 'unknown_1';
}

describe("a key's tools/list holds the tools it may call", () => {
  let h: Harness;
  const clients: Client[] = [];
  const listFor = async (key: string) => {
    const client = await mcpClient(h.mcpUrl, key);
    clients.push(client);
    return { client, names: (await client.listTools()).tools.map((t) => t.name).sort() };
  };
  before(async () => {
    h = await startServer({});
  });
  after(async () => {
    for (const c of clients) await c.close();
    await h?.close();
  });

  it('a read key: every read tool, and each answers it (never api_scope_required)', async () => {
    const { client, names } = await listFor(h.alice.readKey);
    const reads = registry.tools.filter((op) => op.scope === 'read');
    assert.deepEqual(names, reads.map((op) => op.name).sort());
    const guide = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Read key' });
    for (const op of reads) {
      // Ids of records that may not exist: a not_found is an answer, a refused scope would not be.
      // Other required fields (export_guide's format) as the operation's example gives them.
      const required = Object.entries(op.example?.input ?? {}).filter(
        ([field]) => !op.pathParams.includes(field) && op.input.shape[field]?.safeParse(undefined).success === false,
      );
      const args = Object.fromEntries([
        ...required,
        ...op.pathParams.map((p) => [p, p === 'productId' ? guide.body.productId : unknownValueOf(op, p)]),
      ]);
      const a = await callTool(client, op.name, args);
      if (a.isError) assert.equal(a.body.error.code, 'not_found', `${op.name}: ${JSON.stringify(a.body)}`);
    }
    const write = await callTool(client, 'create_guide', { name: 'Not with this key' });
    assert.equal(write.body.error.code, 'api_scope_required', 'a tool left out still answers as REST does');
  });

  it('a write key without the publish option: all but publish_changes, which still answers api_scope_required', async () => {
    const { client, names } = await listFor(h.alice.writeKey);
    assert.deepEqual(
      names,
      registry.tools
        .filter((op) => op.scope !== 'publish')
        .map((op) => op.name)
        .sort(),
    );
    const guide = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Write key' });
    const a = await callTool(client, 'publish_changes', { productId: guide.body.productId });
    assert.equal(a.body.error.code, 'api_scope_required');
  });

  it('a write key with the publish option: every tool', async () => {
    const { names } = await listFor(h.alice.publishKey);
    assert.deepEqual(names, registry.tools.map((op) => op.name).sort());
  });
});
