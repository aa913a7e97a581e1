import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstValues, isSpliced, spliceOf, wholeValues } from '../../src/db/history-splices.ts';

/**
 * A long text an update changed a little of is kept as splices (db/history-splices.ts): made whole
 * again against the value the change left, and refused against any other.
 */

const long = Array.from({ length: 80 }, (_, i) => `Stop ${i}: the bridge 🌉 and the old mill.`).join(' ');

/** The value before the change, from what the change kept and the value it left. */
function before(after: string, kept: string | null): unknown {
  return wholeValues({ text: kept === null ? after : JSON.parse(kept) }, { text: after }, 'test').text;
}

describe('splices of long texts', () => {
  it('keeps an edit anywhere in the text as the part it changed, and gives the text back', () => {
    for (const after of [
      long.replace('Stop 0:', 'First stop:'),
      long.replace('Stop 41:', 'Stop forty-one:'),
      `${long} And home.`,
      long.slice(0, -10),
      long.replace('🌉', '🏞️'),
    ]) {
      const kept = spliceOf(long, after);
      assert.ok(kept !== null && kept.length < 100, String(kept));
      assert.equal(before(after, kept), long);
    }
  });

  it('never cuts a surrogate pair in two', () => {
    // The two emoji share their first half: a cut between the halves would keep half a character.
    const after = long.replace('🌉', '🌊');
    const [[keep, keepEnd, was, is]] = JSON.parse(spliceOf(long, after)!).splices;
    assert.equal(was, '🌉');
    assert.equal(is, '🌊');
    assert.equal(long.slice(0, keep) + was + long.slice(long.length - keepEnd), long);
  });

  it('keeps a text rewritten through whole', () => {
    assert.equal(spliceOf(long, long.split('').reverse().join('')), null);
  });

  it('adds a later edit of the same change before the first, and makes them whole against a whole value', () => {
    const once = long.replace('Stop 3:', 'Stop three:');
    const twice = once.replace('Stop 70:', 'Stop seventy:');
    const merged = firstValues(
      JSON.stringify({ text: JSON.parse(spliceOf(long, once)!) }),
      JSON.stringify({ text: JSON.parse(spliceOf(once, twice)!) }),
    );
    const text = JSON.parse(merged!).text;
    assert.ok(isSpliced(text));
    assert.equal(text.splices.length, 2);
    assert.equal(wholeValues({ text }, { text: twice }, 'test').text, long);
    // A row deleted after: its image holds the whole value it had then.
    const whole = firstValues(
      JSON.stringify({ text: JSON.parse(spliceOf(long, once)!) }),
      JSON.stringify({ text: once, id: 'x' }),
    );
    assert.deepEqual(JSON.parse(whole!), { text: long, id: 'x' });
    assert.equal(firstValues(null, JSON.stringify({ text: once })), null, 'a row the change created keeps nothing');
  });

  it('refuses to put a text back over one the change did not leave', () => {
    const after = long.replace('Stop 12:', 'Stop twelve:');
    const kept = JSON.parse(spliceOf(long, after)!);
    for (const other of [long, `${after}!`, after.replace('twelve', 'TWELVE'), undefined]) {
      assert.throws(() => wholeValues({ text: kept }, { text: other }, 'spots x'), /spots x\.text no longer holds/);
    }
  });
});
