import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createRegistry } from '../../src/resources/index.ts';
import { jsonSchemaOf } from '../../src/transports/json-schema.ts';
import { describeTool } from '../../src/transports/tool-list.ts';

const registry = createRegistry();
const tools = registry.tools.map(describeTool);

/** Variants of a sample a validator might read differently: each value broken, dropped or added to. */
function variants(sample: unknown): unknown[] {
  const out: unknown[] = [];
  const visit = (node: unknown, replace: (value: unknown) => unknown): void => {
    if (Array.isArray(node)) {
      out.push(replace([...node, node[0]]), replace([]));
      node.forEach((item, i) => {
        visit(item, (v) => replace(node.map((x, j) => (j === i ? v : x))));
      });
    } else if (typeof node === 'object' && node !== null) {
      out.push(replace({ ...node, zzUnknown: 1 }));
      for (const [key, value] of Object.entries(node)) {
        const { [key]: _dropped, ...rest } = node as Record<string, unknown>;
        out.push(replace(rest));
        visit(value, (v) => replace({ ...node, [key]: v }));
      }
    } else if (typeof node === 'number') {
      out.push(replace(node + 1000), replace(-node - 1000), replace(String(node)));
    } else if (typeof node === 'string') {
      out.push(replace(''), replace('x'.repeat(3000)), replace(7));
    } else {
      out.push(replace(null), replace('true'));
    }
  };
  visit(sample, (v) => v);
  return out;
}

describe('every tool schema means the same to draft-07 and 2020-12 validators', () => {
  const draft07 = new Ajv({ strict: true, allErrors: false });
  const draft2020 = new Ajv2020({ strict: true, allErrors: false });
  for (const tool of tools) {
    const op = registry.get(tool.name);
    it(tool.name, () => {
      assert.ok(op?.example, `${tool.name} declares no example: add one (input and output)`);
      for (const side of ['input', 'output'] as const) {
        const schema = side === 'input' ? tool.inputSchema : tool.outputSchema;
        const old = draft07.compile(schema);
        const current = draft2020.compile(schema);
        const sample: unknown = op.example[side];
        assert.equal(current(sample), true, `${tool.name} ${side} example: ${JSON.stringify(current.errors)}`);
        for (const variant of [sample, ...variants(sample)]) {
          assert.equal(
            old(variant),
            current(variant),
            `${tool.name} ${side}: drafts disagree on ${JSON.stringify(variant)}`,
          );
        }
      }
    });
  }
});

describe('the tool list stays small', () => {
  /** What a client downloads per tool on every connection, on average (issue 9: 90 KB for 31 tools). */
  const BUDGET_PER_TOOL = 2.9 * 1024;
  it(`tools/list is at most ${BUDGET_PER_TOOL} bytes a tool`, () => {
    const size = Buffer.byteLength(JSON.stringify({ tools }));
    const budget = Math.floor(tools.length * BUDGET_PER_TOOL);
    process.stdout.write(
      `# tools/list: ${size} bytes for ${tools.length} tools (${(size / tools.length / 1024).toFixed(2)} KB a tool; budget ${budget})\n`,
    );
    assert.ok(size <= budget, `tools/list is ${size} bytes, over ${budget}`);
  });

  it('an output schema names every top-level field of the answer with its JSON type, and stays open', () => {
    for (const tool of tools) {
      const op = registry.get(tool.name);
      assert.ok(op);
      const full = jsonSchemaOf(op.output, 'output') as { properties: Record<string, unknown> };
      const shallow = tool.outputSchema as unknown as { properties: Record<string, { type?: unknown }> };
      assert.deepEqual(Object.keys(shallow.properties), Object.keys(full.properties), tool.name);
      assert.equal(tool.outputSchema.additionalProperties, undefined, tool.name);
      for (const [name, field] of Object.entries(shallow.properties)) {
        assert.ok(
          Object.keys(field).every((k) => k === 'type'),
          `${tool.name}.${name}: only its type`,
        );
      }
    }
    const guide = tools.find((t) => t.name === 'get_guide')?.outputSchema.properties as Record<string, unknown>;
    assert.deepEqual(guide.productId, { type: 'string' });
    assert.deepEqual(guide.region, { type: ['object', 'null'] });
  });

  it('a shared field type is defined once per schema and referenced', () => {
    const spot = tools.find((t) => t.name === 'create_spot');
    assert.ok(spot);
    const defs = (spot.inputSchema as { $defs?: Record<string, unknown> }).$defs ?? {};
    for (const name of ['Fee', 'GuideLink', 'StatusNotice', 'Schedule', 'SourceRef']) assert.ok(name in defs, name);
    const text = JSON.stringify(spot.inputSchema);
    assert.equal(text.split('"Information for buyers, never charged').length, 2, 'the Fee description once');
  });
});
