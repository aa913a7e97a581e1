import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createRegistry } from '../../src/resources/index.ts';
import { describeTools, type ToolDescription } from '../../src/transports/tool-list.ts';

/**
 * Every tool as a write key with the publish option lists it (name, title, description, input
 * schema, annotations), kept in the repository as GitHub's MCP server keeps its toolsnaps: a change
 * deep inside a shared field type, a description or a field note said elsewhere shows in review.
 * `UPDATE_TOOLSNAPS=1` rewrites them on purpose.
 */
const folder = new URL('../toolsnaps/', import.meta.url);
const update = process.env.UPDATE_TOOLSNAPS === '1';
const tools = describeTools(createRegistry().tools);

function snapOf(tool: ToolDescription): string {
  return `${JSON.stringify(tool, null, 2)}\n`;
}

describe('tool schema snapshots (test/toolsnaps; UPDATE_TOOLSNAPS=1 rewrites them)', () => {
  if (update) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    for (const tool of tools) writeFileSync(new URL(`${tool.name}.json`, folder), snapOf(tool));
  }
  for (const tool of tools) {
    it(tool.name, () => {
      let committed: string;
      try {
        committed = readFileSync(new URL(`${tool.name}.json`, folder), 'utf8');
      } catch {
        assert.fail(`test/toolsnaps/${tool.name}.json is missing: run UPDATE_TOOLSNAPS=1 on this test`);
      }
      assert.equal(snapOf(tool), committed, `${tool.name} changed its schema: review, then UPDATE_TOOLSNAPS=1`);
    });
  }
  it('keeps no snapshot of a tool that is gone', () => {
    const names = new Set(tools.map((t) => `${t.name}.json`));
    assert.deepEqual(
      readdirSync(folder).filter((f) => !names.has(f)),
      [],
    );
  });
});
