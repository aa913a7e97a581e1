import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnyOperation } from '../../src/core/operation.ts';
import { apiFor, useServer } from '../helpers/api.ts';
import { deletionsLast, exampleInput, exampleStory, studioFor, uploadExample } from '../helpers/example-story.ts';

/** Counters and clocks that move on every write without changing what the guide says. */
const volatile = new Set(['updatedAt', 'lastApiWriteAt', 'schemaVersion', 'propertySchemaVersion', 'today']);

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !volatile.has(k))
      .map(([k, v]) => [k, stable(v)]),
  );
}

/**
 * The MCP hints promise what a call does: a read changes nothing, a call marked idempotent leaves
 * the same state when repeated, and the two PUTs that add a row say so. Checked on the examples.
 */
describe('tool annotations match what each tool does', () => {
  const s = useServer({});

  it('reads change nothing; idempotent writes repeated leave the state of one call; the others add a row', async () => {
    const api = apiFor(s.h, 'rest', s.h.alice.publishKey);
    const registry = s.h.app.registry;
    const call = async (op: AnyOperation, input: Record<string, unknown>) => {
      if (op.restOnly) return uploadExample(s.h.baseUrl, s.h.alice.publishKey, op, input);
      const a = await api.call(op.name, input);
      assert.ok(a.ok, `${op.name}: ${JSON.stringify(a.body)}`);
      return a.body as Record<string, unknown>;
    };
    const ids = await exampleStory(
      registry.operations.filter((op) => !op.destructive),
      call,
      new Map(),
      studioFor(s.h.store.db),
    );
    const productId = (await api.call('list_guides', {})).body.guides[0].productId as string;
    const reads: Array<[string, Record<string, unknown>]> = [
      ['get_profile', {}],
      ['list_guides', {}],
      ['list_spots', { productId, includeArchived: true }],
      ['list_properties', { productId }],
      ['list_areas', { productId }],
      ['list_facilities', { productId }],
      ['list_chapters', { productId }],
      ['list_routes', { productId, includeTrack: true }],
      ['list_hikes', { productId, includeTrack: true }],
      ['list_media', { productId }],
      ['list_itineraries', { productId }],
      ['get_sales_page', { productId }],
      ['get_publish_status', { productId }],
      ['get_link_report', { productId }],
    ];
    const state = async () => {
      const bodies = [];
      for (const [name, input] of reads) {
        const a = await api.call(name, input);
        assert.ok(a.ok, `${name}: ${JSON.stringify(a.body)}`);
        bodies.push(a.body);
      }
      return stable(bodies);
    };
    for (const op of deletionsLast(registry.tools).filter((o) => o.readOnly || o.idempotent)) {
      const before = await state();
      const input = exampleInput(op, ids);
      const first = await api.call(op.name, input);
      assert.ok(first.ok, `${op.name}: ${JSON.stringify(first.body)}`);
      const once = await state();
      if (op.readOnly) assert.deepEqual(once, before, `${op.name} is readOnly but changed the state`);
      if (!op.idempotent) continue;
      await api.call(op.name, input);
      assert.deepEqual(await state(), once, `${op.name} is marked idempotent, but a second call changed the state`);
    }
    await api.close();
  });

  it('set_guide_price and set_area without areaId add a row on every call', async () => {
    const api = apiFor(s.h, 'rest', s.h.alice.publishKey);
    const guide = (await api.call('create_guide', { name: 'Twice' })).body.productId as string;
    const price = { productId: guide, amountMinor: 2900, currency: 'EUR' };
    const a = await api.call('set_guide_price', price);
    const b = await api.call('set_guide_price', price);
    assert.notEqual(a.body.productPriceId, b.body.productPriceId);
    const area = { productId: guide, name: 'Triglav National Park', kind: 'park' };
    await api.call('set_area', area);
    await api.call('set_area', area);
    assert.equal((await api.call('list_areas', { productId: guide })).body.count, 2);
    for (const name of ['set_guide_price', 'set_area']) assert.equal(s.h.app.registry.get(name)?.idempotent, false);
    await api.close();
  });
});
