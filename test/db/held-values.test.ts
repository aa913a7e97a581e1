import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { holdingValues } from '../../src/db/held-values.ts';
import { NodeSqliteAdapter } from '../../src/db/node-sqlite-adapter.ts';

/** `held_value(token, key)`: what a statement on the embedded store compares its rows against. */
describe('held values', () => {
  let dir: string;
  let adapter: NodeSqliteAdapter;
  const ask = (token: number, key: string) =>
    adapter.prepare('select held_value(?, ?) as v').all([token, key])[0] as { v: unknown };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'held-values-'));
    adapter = new NodeSqliteAdapter(join(dir, 'store.sqlite'));
    adapter.prepare('create table rows (k text primary key, r text)').run([]);
    for (const [k, r] of [
      ['a', '{"n":1}'],
      ['b', '{"n":2}'],
      ['c', '{"n":"é"}'],
    ]) {
      adapter.prepare('insert into rows (k, r) values (?, ?)').run([k, r]);
    }
  });
  after(() => {
    adapter.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a statement compares each row with the bytes held under its key, the rest answering null', async () => {
    const held = new Map([
      ['a', Buffer.from('{"n":1}')],
      ['b', Buffer.from('{"n":3}')],
      ['c', Buffer.from('{"n":"é"}')],
    ]);
    const rows = await holdingValues(held, async (token) =>
      adapter.prepare('select k, cast(r as blob) = held_value(?, k) as same from rows order by k').all([token]),
    );
    assert.deepEqual(
      rows.map((r) => ({ ...(r as object) })),
      [
        { k: 'a', same: 1 },
        { k: 'b', same: 0 },
        { k: 'c', same: 1 },
      ],
      'the same UTF-8 bytes are equal, other bytes are not',
    );
    const missing = await holdingValues(new Map(), async (token) => ask(token, 'a'));
    assert.equal(missing.v, null);
  });

  test('each holder sees its own values, and none once it is done, whatever it threw', async () => {
    let firstToken = 0;
    let secondToken = 0;
    await holdingValues(new Map([['a', 'first']]), async (first) => {
      firstToken = first;
      await holdingValues(new Map([['a', 'second']]), async (second) => {
        secondToken = second;
        assert.equal(ask(first, 'a').v, 'first');
        assert.equal(ask(second, 'a').v, 'second');
      });
      assert.equal(ask(secondToken, 'a').v, null, 'released as its holder returned');
    });
    assert.equal(ask(firstToken, 'a').v, null);
    let thrownToken = 0;
    await assert.rejects(
      holdingValues(new Map([['a', 'kept']]), async (token) => {
        thrownToken = token;
        throw new Error('the statement failed');
      }),
      /the statement failed/,
    );
    assert.equal(ask(thrownToken, 'a').v, null, 'released though its holder threw');
  });
});
