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
        // Tools declare no output schema; the full answer schema is what the OpenAPI document shows.
        const schema: Record<string, unknown> = side === 'input' ? tool.inputSchema : jsonSchemaOf(op.output, 'output');
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

describe('tool schemas', () => {
  it('a shared field type is defined once per schema and referenced', () => {
    const spot = tools.find((t) => t.name === 'create_spot');
    assert.ok(spot);
    const defs = (spot.inputSchema as { $defs?: Record<string, unknown> }).$defs ?? {};
    for (const name of ['Fee', 'GuideLink', 'StatusNotice', 'Schedule', 'SourceRef']) assert.ok(name in defs, name);
    const text = JSON.stringify(spot.inputSchema);
    assert.equal(text.split('"Information for buyers, never charged').length, 2, 'the Fee description once');
  });
});
