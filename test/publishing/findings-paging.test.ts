import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, useServer } from '../helpers/api.ts';
import { clientLines, withClient } from '../helpers/clients.ts';
import { testDialects } from '../helpers/dialects.ts';
import { newGuide } from '../helpers/fixtures.ts';

const SPOTS = 130;
const BATCH = 25;
const key = (i: number) => `spot-${String(i).padStart(3, '0')}`;

interface Finding {
  code: string;
  severity: string;
  where: { id: string; name: string; field: string };
}

/** What identifies a finding across pages. */
const idOf = (f: Finding) => `${f.code} ${f.where.id} ${f.where.field}`;

/**
 * A guide of 130 spots, each with an empty required property (blocking) and a fee never checked
 * (a warning): 260 findings, far more than a page.
 */
async function bigGuide(api: Api, name: string): Promise<{ productId: string; property: string }> {
  const productId = await newGuide(api, name);
  assertOk(await api.call('set_guide_price', { productId, amountMinor: 1500, currency: 'eur' }));
  const prop = await api.call('create_property', { productId, label: 'Surface', kind: 'shortLabel', required: true });
  assertOk(prop, 201);
  for (let start = 0; start < SPOTS; start += BATCH) {
    const spots = Array.from({ length: Math.min(BATCH, SPOTS - start) }, (_, j) => ({
      spotKey: key(start + j),
      name: `Spot ${key(start + j)}`,
      lat: 46.3,
      lon: 13.9,
      fees: [{ label: 'Entry', amount: 5, currency: 'EUR' }],
    }));
    assertOk(await api.call('upsert_spots', { productId, spots }));
  }
  return { productId, property: prop.body.key as string };
}

/** Every page of a paged read, each answer checked by `eachPage`. */
async function allPages<T>(
  read: (cursor: string | undefined) => Promise<{ body: any }>,
  items: (body: any) => T[],
  eachPage: (body: any) => void,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const { body } = await read(cursor);
    eachPage(body);
    all.push(...items(body));
    cursor = body.nextCursor;
    if (cursor === undefined) return all;
  }
  throw new Error('the pages never ended');
}

/**
 * The findings of get_guide_readiness and get_publish_status come a page at a time over REST and
 * both MCP client lines: the default page stays small however big the guide, the counts by
 * severity are on every page, a fix between two pages skips nothing, and publish_changes' refusal
 * stays small too.
 */
for (const { dialect, skip } of await testDialects()) {
  describe(`findings are paged (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });

    for (const line of clientLines) {
      describe(`through ${line}`, () => {
        it('readiness: a small default page, the whole guide counted on every page, every finding once', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (api) => {
            const { productId } = await bigGuide(api, `Paged ${line}`);
            const first = await api.call('get_guide_readiness', { productId });
            assertOk(first);
            assert.equal(first.body.findings.length, 50, 'the default page');
            assert.equal(first.body.total, 2 * SPOTS);
            assert.ok(first.body.nextCursor);
            assert.ok(JSON.stringify(first.body).length < 40_000, 'a default page stays small');
            assert.ok(
              first.body.findings.every((f: Finding) => f.severity === 'blocking'),
              'blocking first',
            );

            const counted = (body: any) => {
              assert.equal(body.ready, false);
              assert.equal(body.blockingCount, SPOTS);
              assert.equal(body.warningCount, SPOTS);
              assert.deepEqual(body.countsByCode, { required_property_empty: SPOTS, fee_unchecked: SPOTS });
              assert.equal(body.total, 2 * SPOTS);
            };
            const read = (cursor: string | undefined) =>
              api.call('get_guide_readiness', { productId, limit: 75, ...(cursor && { cursor }) });
            const all = await allPages(read, (body) => body.findings as Finding[], counted);
            assert.equal(all.length, 2 * SPOTS);
            assert.equal(new Set(all.map(idOf)).size, 2 * SPOTS, 'each finding once');
            const severities = all.map((f) => f.severity);
            assert.deepEqual(severities, severities.toSorted(), 'blocking ones before every warning');

            const warnings = await api.call('get_guide_readiness', { productId, code: 'fee_unchecked', limit: 200 });
            assertOk(warnings);
            assert.equal(warnings.body.total, SPOTS);
            assert.equal(warnings.body.findings.length, SPOTS);
            assert.ok(warnings.body.findings.every((f: Finding) => f.code === 'fee_unchecked'));
            assert.equal(warnings.body.blockingCount, SPOTS, 'the counts stay over the whole guide');
            assert.equal(warnings.body.nextCursor, undefined);

            // A cursor is good for the list and filter that made it only.
            const filtered = await api.call('get_guide_readiness', { productId, code: 'fee_unchecked', limit: 10 });
            assertError(
              await api.call('get_guide_readiness', { productId, cursor: filtered.body.nextCursor }),
              'invalid_argument',
              'cursor',
            );
            assertError(await api.call('get_guide_readiness', { productId, limit: 201 }), 'invalid_argument', 'limit');
            assertError(
              await api.call('get_guide_readiness', { productId, code: 'no_such_code' }),
              'invalid_argument',
              'code',
            );
          });
        });

        it('readiness: fixing what one page showed skips nothing on the next', async () => {
          await withClient(suite.h, line, suite.h.alice.writeKey, async (api) => {
            const { productId, property } = await bigGuide(api, `Fixing ${line}`);
            const everything = await api.call('get_guide_readiness', { productId, limit: 200 });
            const order: string[] = everything.body.findings.map(idOf);
            const first = await api.call('get_guide_readiness', { productId, limit: 40 });
            const fixed = first.body.findings as Finding[];
            // The assistant fills in the 40 spots the page named (their names carry their keys), then reads on.
            const fill = fixed.map((f) => ({
              spotKey: f.where.name.replace('Spot ', ''),
              customValues: { [property]: 'Rock' },
            }));
            assertOk(await api.call('upsert_spots', { productId, spots: fill.slice(0, BATCH) }));
            assertOk(await api.call('upsert_spots', { productId, spots: fill.slice(BATCH) }));
            const next = await api.call('get_guide_readiness', { productId, limit: 40, cursor: first.body.nextCursor });
            assertOk(next);
            assert.deepEqual(next.body.findings.map(idOf), order.slice(40, 80), 'resumes after the last one served');
            assert.equal(next.body.blockingCount, SPOTS - 40);
            assert.equal(next.body.total, 2 * SPOTS - 40);
          });
        });

        it('publish status pages the gates and warnings together; its counts say whether a publish would go', async () => {
          await withClient(suite.h, line, suite.h.alice.publishKey, async (api) => {
            const { productId } = await bigGuide(api, `Status ${line}`);
            const first = await api.call('get_publish_status', { productId });
            assertOk(first);
            assert.equal(first.body.blocking[0].code, 'not_live', 'the gate leads');
            assert.equal(first.body.blocking.length + first.body.warnings.length, 50);
            assert.ok(JSON.stringify(first.body).length < 40_000, 'a default page stays small');
            const counted = (body: any) => {
              assert.equal(body.blockingCount, SPOTS + 1, 'not_live and every blocking finding');
              assert.equal(body.warningCount, SPOTS);
              assert.equal(body.total, 2 * SPOTS + 1);
              assert.equal(body.live, false);
            };
            const read = (cursor: string | undefined) =>
              api.call('get_publish_status', { productId, limit: 100, ...(cursor && { cursor }) });
            const pages: any[] = [];
            const gates = await allPages(
              read,
              (body) => [...body.blocking, ...body.warnings],
              (body) => pages.push(body) && counted(body),
            );
            assert.equal(gates.length, 2 * SPOTS + 1);
            assert.deepEqual(pages.at(-1).blocking, [], 'the last page holds warnings only');

            const refused = await api.call('publish_changes', { productId });
            assertError(refused, 'not_publishable');
            assert.equal(refused.body.error.details.blocking.length, 50, 'the refusal holds the first page of gates');
            assert.equal(refused.body.error.details.blockingCount, SPOTS + 1);
            assert.match(refused.body.error.message, /\(not_live, required_property_empty\)/);
            assert.ok(JSON.stringify(refused.body).length < 40_000);
          });
        });
      });
    }
  });
}
