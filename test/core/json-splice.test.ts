import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { frozenWithLast, jsonBytesOf, jsonOf, keptJsonLiteralBytesOf } from '../../src/core/json.ts';
import { jsonToolResult, type ToolCall, toolCallAnswer } from '../../src/transports/mcp-tool-call.ts';

/**
 * A kept page answered with a cursor of its own is not serialized again: its JSON is the kept
 * page's with the cursor swapped in (core/json.ts frozenWithLast), and an MCP answer puts the
 * page's JSON, escaped once, between the message's other bytes (mcp-tool-call.ts). Either way the
 * bytes must be exactly those JSON.stringify writes for the object.
 */

/** Text JSON escapes, or might: quotes, backslashes, controls, line separators, astral and lone surrogates. */
const NASTY = ['"', '\\', '\n', '\u0000', '\u2028', '\u2029', '😀', '\ud800', '\udfff', '</script>', 'é'];
const nastyString = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.array(fc.constantFrom(...NASTY, 'a', 'nextCursor', '"nextCursor":"x"}')).map((parts) => parts.join('')),
);

const SERVER = { name: 'creator-api', version: '2026-11-27' };

describe('a kept page with its cursor swapped in', () => {
  it('is the JSON of the copy, whatever the page and the cursor hold', () => {
    fc.assert(
      fc.property(fc.dictionary(nastyString, fc.jsonValue()), nastyString, nastyString, (fields, position, cursor) => {
        const { nextCursor: _, ...rest } = fields;
        const kept = Object.freeze({ ...rest, items: [{ nextCursor: position }], nextCursor: position });
        jsonOf(kept);
        const copy = frozenWithLast(kept, 'nextCursor', cursor);
        assert.ok(Object.isFrozen(copy));
        assert.equal(copy.nextCursor, cursor);
        assert.equal(jsonOf(copy), JSON.stringify({ ...kept, nextCursor: cursor }));
        assert.equal(jsonBytesOf(copy).toString(), JSON.stringify(copy));
        assert.equal(kept.nextCursor, position, 'the kept page is left as it was');
      }),
      { numRuns: 500 },
    );
  });

  it('is serialized whole when the cursor is not its last member, or the page not frozen', () => {
    const inner = { nextCursor: 'b', total: 3 };
    const copy = frozenWithLast(Object.freeze(inner), 'nextCursor', 'sealed');
    assert.equal(jsonOf(copy), '{"nextCursor":"sealed","total":3}');
    const open = frozenWithLast({ total: 3, nextCursor: 'b' }, 'nextCursor', 'sealed');
    assert.equal(jsonOf(open), '{"total":3,"nextCursor":"sealed"}');
  });
});

describe('an MCP answer around a text escaped once', () => {
  it('is the bytes of the whole message serialized, on both lines, for any id', () => {
    fc.assert(
      fc.property(
        fc.dictionary(nastyString, fc.jsonValue()),
        fc.oneof(nastyString, fc.maxSafeInteger()),
        fc.constantFrom('modern', 'legacy'),
        (fields, id, era) => {
          const kept = Object.freeze({ ...fields });
          const call: ToolCall = { era: era as ToolCall['era'], id, name: 'list_spots', arguments: {} };
          const spliced = toolCallAnswer(call, jsonToolResult(kept), SERVER);
          // The same answer for a result made each time, which is serialized whole.
          const whole = toolCallAnswer(call, { content: [{ type: 'text', text: JSON.stringify(kept) }] }, SERVER);
          assert.deepEqual(spliced.headers, whole.headers);
          assert.equal(spliced.body.toString(), whole.body.toString());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds a kept value’s JSON without asking again whether it is frozen (which walks every property)', () => {
    const kept = Object.freeze({ name: 'kept', spots: [1, 2] });
    const made = [jsonOf(kept), jsonBytesOf(kept), keptJsonLiteralBytesOf(kept)];
    const isFrozen = Object.isFrozen;
    let asked = 0;
    Object.isFrozen = (value: unknown) => {
      asked += 1;
      return isFrozen(value);
    };
    try {
      assert.deepEqual([jsonOf(kept), jsonBytesOf(kept), keptJsonLiteralBytesOf(kept)], made);
    } finally {
      Object.isFrozen = isFrozen;
    }
    assert.equal(asked, 0);
    assert.equal(keptJsonLiteralBytesOf({ name: 'not kept' }), undefined);
  });

  it('gives a kept view’s text item no member beyond type and text', () => {
    const [item] = jsonToolResult(Object.freeze({ name: 'kept' })).content;
    assert.deepEqual(Object.keys(item as object), ['type', 'text']);
    assert.equal(JSON.stringify(item), JSON.stringify({ type: 'text', text: '{"name":"kept"}' }));
    assert.deepEqual({ ...item }, { type: 'text', text: '{"name":"kept"}' });
  });

  it('serializes whole a result changed after it was made', () => {
    const result = jsonToolResult(Object.freeze({ name: 'kept' }));
    (result.content[0] as { text: string }).text = '{"name":"changed"}';
    const call: ToolCall = { era: 'modern', id: 1, name: 'get_guide', arguments: {} };
    assert.match(toolCallAnswer(call, result, SERVER).body.toString(), /changed/);
    const marked = jsonToolResult(Object.freeze({ name: 'kept' }));
    const withError = { ...marked, isError: true };
    assert.match(toolCallAnswer(call, withError, SERVER).body.toString(), /"isError":true/);
  });
});
