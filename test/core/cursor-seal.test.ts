import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { CursorSeal } from '../../src/core/cursor-seal.ts';
import { ApiError } from '../../src/core/errors.ts';

const POSITION = '[3,1795428000000,"sp_abc"]';

/** The cursor `seal` issues for `position` in an answer to `operation` called with `input`. */
async function issue(seal: CursorSeal, operation: string, creatorId: string, input: Record<string, unknown>) {
  const call = await seal.open(operation, creatorId, { ...input });
  return (await call.seal({ nextCursor: POSITION })).nextCursor as string;
}

/** The position `cursor` opens to when sent to `operation` with `input`, or the refusal's code. */
async function opened(
  seal: CursorSeal,
  operation: string,
  creatorId: string,
  input: Record<string, unknown>,
  cursor: string,
) {
  const sent: Record<string, unknown> = { ...input, cursor };
  try {
    await seal.open(operation, creatorId, sent);
    return sent.cursor;
  } catch (err) {
    assert.ok(err instanceof ApiError && err.message.startsWith('cursor: '), String(err));
    return err.code;
  }
}

describe('the cursor seal', () => {
  const key = randomBytes(32);
  const spots = { productId: 'gd_1', areaId: 'ar_1', nameContains: 'lake' };

  it('answers at once, without a promise, a call with no cursor to open and an answer with none to seal', async () => {
    const seal = new CursorSeal(async () => key);
    const call = seal.open('get_guide', 'cr_1', { productId: 'gd_1' });
    assert.ok(!(call instanceof Promise), 'nothing to open');
    const answer = { productId: 'gd_1' };
    assert.equal(call.seal(answer), answer, 'nothing to seal: the answer itself');
    const opening = seal.open('list_spots', 'cr_1', { ...spots, cursor: 'x' });
    assert.ok(opening instanceof Promise, 'a cursor to open');
    await assert.rejects(opening);
    const sealing = call.seal({ nextCursor: POSITION });
    assert.ok(sealing instanceof Promise, 'a cursor to seal');
    await sealing;
  });

  it('opens, at another instance with the same key, what one issued; not with another key', async () => {
    const one = new CursorSeal(async () => key);
    const cursor = await issue(one, 'list_spots', 'cr_1', spots);
    assert.equal(await opened(new CursorSeal(async () => key), 'list_spots', 'cr_1', spots, cursor), POSITION);
    const elsewhere = new CursorSeal(async () => randomBytes(32));
    assert.equal(await opened(elsewhere, 'list_spots', 'cr_1', spots, cursor), 'invalid_argument');
  });

  it('binds the list, the creator and every filter, in any order; never the limit or the view', async () => {
    const seal = new CursorSeal(async () => key);
    const cursor = await issue(seal, 'list_spots', 'cr_1', spots);
    const reordered = { nameContains: 'lake', areaId: 'ar_1', productId: 'gd_1' };
    assert.equal(
      await opened(seal, 'list_spots', 'cr_1', { ...reordered, limit: 7, view: 'compact' }, cursor),
      POSITION,
    );
    const refusals = [
      await opened(seal, 'list_chapters', 'cr_1', spots, cursor),
      await opened(seal, 'list_spots', 'cr_2', spots, cursor),
      await opened(seal, 'list_spots', 'cr_1', { ...spots, productId: 'gd_2' }, cursor),
      await opened(seal, 'list_spots', 'cr_1', { ...spots, nameContains: undefined }, cursor),
      await opened(seal, 'list_spots', 'cr_1', { ...spots, includeArchived: true }, cursor),
    ];
    assert.deepEqual(new Set(refusals), new Set(['invalid_argument']));
  });

  it('issues a new cursor each time for an answer made for the call, and leaves answers without one as they are', async () => {
    const seal = new CursorSeal(async () => key);
    assert.notEqual(await issue(seal, 'list_spots', 'cr_1', spots), await issue(seal, 'list_spots', 'cr_1', spots));
    const answer = { count: 0 };
    assert.equal(await (await seal.open('get_guide', 'cr_1', {})).seal(answer), answer);
  });

  it('seals a kept (frozen) page once per binding, into a frozen copy that opens only for that binding', async () => {
    const seal = new CursorSeal(async () => key);
    const kept = Object.freeze({ count: 1, nextCursor: POSITION });
    const answer = async (creatorId: string, input: Record<string, unknown>) =>
      (await seal.open('list_spots', creatorId, { ...input })).seal(kept);
    const first = await answer('cr_1', spots);
    assert.ok(Object.isFrozen(first) && first !== kept);
    assert.equal(kept.nextCursor, POSITION, 'the kept page is left as it was');
    assert.equal(await answer('cr_1', { ...spots, limit: 9 }), first, 'the same copy for the same binding');
    const other = await answer('cr_2', spots);
    assert.notEqual(other.nextCursor, first.nextCursor);
    assert.equal(await opened(seal, 'list_spots', 'cr_1', spots, first.nextCursor as string), POSITION);
    assert.equal(await opened(seal, 'list_spots', 'cr_2', spots, first.nextCursor as string), 'invalid_argument');
    assert.equal(await opened(seal, 'list_spots', 'cr_2', spots, other.nextCursor as string), POSITION);
  });

  it('reads its key once, and again after a read that failed', async () => {
    let reads = 0;
    const seal = new CursorSeal(async () => {
      reads += 1;
      if (reads === 1) throw new Error('the store is away');
      return key;
    });
    await assert.rejects(issue(seal, 'list_spots', 'cr_1', spots), /the store is away/);
    await issue(seal, 'list_spots', 'cr_1', spots);
    await issue(seal, 'list_spots', 'cr_1', spots);
    assert.equal(reads, 2);
  });
});
