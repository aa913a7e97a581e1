import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { type Answer, assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, noRateLimits, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { argsOf, type FilledGuide, fillGuide, issuedCursor, PAGED_LISTS, type PagedList } from './cursor-lists.ts';

/**
 * A cursor is sealed: a client reads nothing in it, and only one the service issued for that list,
 * those filters and that creator reads on. Whatever else arrives as `cursor` (the readable form
 * cursors once had with a value too few or too many, a string for a number, 1.5, 1e308, 2^63 or a
 * NUL; a changed character; another list's, guide's, creator's or filters' cursor; anything made
 * up) is refused 400 invalid_argument naming `cursor`, on every paged list, over REST and MCP, on
 * both stores, with a read key as with a write key.
 */

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const STARTS_AGAIN = /omit cursor to start again/;

/** The readable form cursors once had: base64url JSON of the list's scope and the sort key. */
function readable(list: PagedList, guide: FilledGuide, values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify([list.oldScope(guide.productId), ...values])).toString('base64url');
}

/** `cursor` with the character at `at` replaced by another of its alphabet. */
function changed(cursor: string, at: number, to = cursor[at] === 'A' ? 'B' : 'A'): string {
  return cursor.slice(0, at) + to + cursor.slice(at + 1);
}

/** Each hostile cursor of `list` on `guide`: a label, the cursor, and the fields sent with it. */
function forgeries(
  list: PagedList,
  guide: FilledGuide,
  issued: string,
  elsewhere: { otherList: string; otherGuide: string | undefined; otherCreator: string },
): Array<[string, string, Record<string, unknown>?]> {
  // A well-shaped sort key: numbers, then an id.
  const key: unknown[] = Array.from({ length: list.arity }, (_, i) => (i === list.arity - 1 ? 'sp_x' : 1));
  const old = (...values: unknown[]) => readable(list, guide, values);
  const cases: Array<[string, string, Record<string, unknown>?]> = [
    ['the readable form cursors once had, well shaped', old(...key)],
    ['one value too few', old(...key.slice(1))],
    ['one value too many', old(...key, 1)],
    ['a string for a number', old('1', ...key.slice(1))],
    ['1.5', old(1.5, ...key.slice(1))],
    ['1e308', old(1e308, ...key.slice(1))],
    ['2^63', old(2 ** 63, ...key.slice(1))],
    ['-1', old(-1, ...key.slice(1))],
    ['a NUL byte', old(...key.slice(0, -1), 'sp\u0000x')],
    ['a sort key alone', Buffer.from(JSON.stringify(key)).toString('base64url')],
    ['JSON as it is', JSON.stringify(key)],
    ['one character changed', changed(issued, Math.floor(issued.length / 2))],
    ['its first character changed', changed(issued, 0)],
    ['its last character changed', changed(issued, issued.length - 1)],
    ['cut short', issued.slice(0, -4)],
    ['one character more', `${issued}A`],
    ['padded', `${issued}=`],
    ['upper case', issued.toUpperCase()],
    ["another list's", elsewhere.otherList],
    ["another creator's", elsewhere.otherCreator],
  ];
  if (elsewhere.otherGuide) cases.push(["another guide's", elsewhere.otherGuide]);
  if (list.otherFilter) cases.push(['sent with other filters', issued, list.otherFilter(guide)]);
  return cases;
}

/** `check` on each case, every failure collected with its label rather than the first alone. */
async function eachRefused(cases: Array<[string, () => Promise<Answer>]>): Promise<void> {
  const wrong: string[] = [];
  for (const [label, call] of cases) {
    try {
      assertError(await call(), 'invalid_argument', 'cursor', { hint: STARTS_AGAIN });
    } catch (err) {
      wrong.push(`${label}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  assert.deepEqual(wrong, []);
}

for (const { dialect, skip } of await testDialects()) {
  describe(`sealed cursors: only one issued for the list reads on (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect, env: noRateLimits });
    let mine: FilledGuide;
    let other: FilledGuide;
    let bobs: FilledGuide;

    before(async () => {
      const { h } = suite;
      mine = await fillGuide(h, suite.apis.rest, h.alice.writeKey, 'Sealed cursors');
      other = await fillGuide(h, suite.apis.rest, h.alice.writeKey, 'Another guide');
      const bob = apiFor(h, 'rest', h.bob.writeKey);
      bobs = await fillGuide(h, bob, h.bob.writeKey, "Bob's guide");
      assertOk(await bob.call('create_guide', { name: "Bob's second guide" }), 201);
      await bob.close();
    });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        // Reads take any key: the read key here, the write key in the other suites.
        let reader: Api;
        const issued = new Map<string, string>();
        before(async () => {
          reader = apiFor(suite.h, t, suite.h.alice.readKey);
          for (const list of PAGED_LISTS) issued.set(list.name, await issuedCursor(reader, list, mine));
        });
        after(() => reader.close());
        const issuedFor = (list: PagedList) => issued.get(list.name) as string;

        it('issues cursors that show nothing of the records and read on, in any view and with any limit', async () => {
          for (const list of PAGED_LISTS) {
            const first = await reader.call(list.name, argsOf(list, mine, { limit: 1 }));
            assertOk(first);
            const cursor = first.body.nextCursor as string;
            const opened = Buffer.from(cursor, 'base64url').toString('latin1');
            for (const shown of [mine.productId, mine.spotId, list.oldScope(mine.productId)]) {
              assert.ok(!opened.includes(shown) && !cursor.includes(shown), `${list.name}: ${shown} shows`);
            }
            const next = await reader.call(list.name, argsOf(list, mine, { cursor, limit: 1 }));
            assertOk(next);
            const { nextCursor: _, ...firstPage } = first.body;
            const { nextCursor: __, ...nextPage } = next.body;
            assert.notDeepEqual(nextPage, firstPage, `${list.name} reads on`);
            // The limit and the view shape a page, not which records follow: a cursor reads on with any.
            const wider = await reader.call(list.name, argsOf(list, mine, { cursor: issuedFor(list), limit: 2 }));
            assertOk(wider);
            if (list.compact) {
              assertOk(await reader.call(list.name, argsOf(list, mine, { cursor, view: 'compact' })));
            }
          }
        });

        it('issues cursors after the longest sort keys that read on', async () => {
          // Place names are ordered by a sort name that may be far longer than the name.
          const productId = (await suite.apis[t].call('create_guide', { name: 'Long sort names' })).body.productId;
          for (const name of ['\uFDFA'.repeat(120), '1a'.repeat(60)]) {
            for (const _ of [1, 2]) {
              assertOk(await suite.apis[t].call('create_facility', { productId, kind: 'hut', name }), 201);
            }
            const args = { productId, nameContains: name.slice(0, 2), limit: 1 };
            const first = await reader.call('list_facilities', args);
            assertOk(first);
            const next = await reader.call('list_facilities', { ...args, cursor: first.body.nextCursor });
            assertOk(next);
            assert.equal(next.body.facilities[0].name, name);
            assert.notEqual(next.body.facilities[0].facilityId, first.body.facilities[0].facilityId);
          }
        });

        it('refuses every hostile cursor on every list, naming cursor and how to start again', async () => {
          const bob = apiFor(suite.h, t, suite.h.bob.readKey);
          const cases: Array<[string, () => Promise<Answer>]> = [];
          for (const [i, list] of PAGED_LISTS.entries()) {
            const next = PAGED_LISTS[(i + 1) % PAGED_LISTS.length] as PagedList;
            const elsewhere = {
              otherList: issuedFor(next),
              otherGuide: list.onGuide ? await issuedCursor(reader, list, other) : undefined,
              otherCreator: await issuedCursor(bob, list, bobs),
            };
            for (const [label, cursor, filters] of forgeries(list, mine, issuedFor(list), elsewhere)) {
              cases.push([
                `${list.name}, ${label}`,
                () => reader.call(list.name, argsOf(list, mine, { ...filters, cursor })),
              ]);
            }
          }
          await bob.close();
          await eachRefused(cases);
        });

        it('refuses whatever else a client sends as cursor (property)', async () => {
          type Make = (list: PagedList, issued: string) => string;
          const sortValue = fc.oneof(
            fc.string(),
            fc.integer(),
            fc.double(),
            fc.constantFrom(null, true, 2 ** 63, -0, 1e308, '\u0000'),
            fc.dictionary(fc.string(), fc.integer()),
          );
          const cursor: fc.Arbitrary<Make> = fc.oneof(
            fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }).map(
              (raw): Make =>
                () =>
                  raw,
            ),
            fc.array(sortValue, { maxLength: 7 }).map(
              (values): Make =>
                (list) =>
                  readable(list, mine, values),
            ),
            fc.tuple(fc.nat(), fc.constantFrom(...BASE64URL)).map(
              ([at, to]): Make =>
                (_, issued) =>
                  changed(issued, at % issued.length, to),
            ),
            fc.nat().map(
              (cut): Make =>
                (_, issued) =>
                  issued.slice(0, cut % issued.length),
            ),
            fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 4 }).map(
              (more): Make =>
                (_, issued) =>
                  issued + more,
            ),
          );
          await fc.assert(
            fc.asyncProperty(fc.constantFrom(...PAGED_LISTS), cursor, async (list, make) => {
              const sent = make(list, issuedFor(list));
              fc.pre(sent !== issuedFor(list));
              const a = await reader.call(list.name, argsOf(list, mine, { cursor: sent }));
              assertError(a, 'invalid_argument', 'cursor');
            }),
            { numRuns: 150 },
          );
        });
      });
    }
  });
}
