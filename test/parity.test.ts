import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { z } from 'zod';
import { errorCatalogue } from '../src/core/errors.ts';
import type { AnyOperation } from '../src/core/operation.ts';
import { withoutRequestId } from './helpers/answers.ts';
import { testDialects } from './helpers/dialects.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { rest } from './helpers/http.ts';
import { callTool, mcpClient } from './helpers/mcp.ts';

/** Fields that differ between two records made the same way: identities and times. */
const volatile = ['productId', 'slug', 'createdAt', 'updatedAt', 'lastApiWriteAt', 'dashboardUrl', 'salesPageUrl'];

function stripVolatile(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => !volatile.includes(k)));
}

interface Call {
  name: string;
  method: string;
  path: string;
  body?: Record<string, unknown>;
  args: Record<string, unknown>;
}

/** The same bad inputs, as a REST request and as MCP arguments. */
function badCalls(productId: string): Call[] {
  const p = `/guides/${productId}`;
  return [
    { name: 'create_guide', method: 'POST', path: '/guides', body: {}, args: {} },
    {
      name: 'create_guide',
      method: 'POST',
      path: '/guides',
      body: { name: 'x'.repeat(121) },
      args: { name: 'x'.repeat(121) },
    },
    {
      name: 'create_guide',
      method: 'POST',
      path: '/guides',
      body: { name: 'A', colour: 'red' },
      args: { name: 'A', colour: 'red' },
    },
    { name: 'get_guide', method: 'GET', path: '/guides/gd_missing', args: { productId: 'gd_missing' } },
    { name: 'list_guides', method: 'GET', path: '/guides?status=lost', args: { status: 'lost' } },
    {
      name: 'update_guide',
      method: 'PATCH',
      path: p,
      body: { storeTags: ['skiing'] },
      args: { productId, storeTags: ['skiing'] },
    },
    {
      name: 'update_guide',
      method: 'PATCH',
      path: p,
      body: { headline: 'h'.repeat(201) },
      args: { productId, headline: 'h'.repeat(201) },
    },
    { name: 'update_guide', method: 'PATCH', path: p, body: { country: 'XX' }, args: { productId, country: 'XX' } },
    {
      name: 'update_guide',
      method: 'PATCH',
      path: p,
      body: { thumbnailMediaId: 'md_nope' },
      args: { productId, thumbnailMediaId: 'md_nope' },
    },
    {
      name: 'set_guide_region',
      method: 'PUT',
      path: `${p}/region`,
      body: { centerLat: 91, centerLon: 0 },
      args: { productId, centerLat: 91, centerLon: 0 },
    },
    {
      name: 'set_guide_region',
      method: 'PUT',
      path: `${p}/region`,
      body: { centerLat: 1 },
      args: { productId, centerLat: 1 },
    },
    {
      name: 'set_guide_price',
      method: 'PUT',
      path: `${p}/price`,
      body: { amountMinor: 899, currency: 'usd' },
      args: { productId, amountMinor: 899, currency: 'usd' },
    },
    {
      name: 'set_guide_price',
      method: 'PUT',
      path: `${p}/price`,
      body: { amountMinor: 1.5, currency: 'usd' },
      args: { productId, amountMinor: 1.5, currency: 'usd' },
    },
    { name: 'update_profile', method: 'PATCH', path: '/profile', body: { email: 'a@b.c' }, args: { email: 'a@b.c' } },
    {
      name: 'set_profile_socials',
      method: 'PUT',
      path: '/profile/socials',
      body: { socials: [{ platform: 'instagram', handle: '@a', url: 'https://example.com/a' }] },
      args: { socials: [{ platform: 'instagram', handle: '@a', url: 'https://example.com/a' }] },
    },
  ];
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`REST and MCP parity (${dialect})`, { skip }, () => {
    let h: Harness;
    let mcp: Client;
    before(async () => {
      h = await startServer({ dialect });
      mcp = await mcpClient(h.mcpUrl, h.alice.writeKey);
    });
    after(async () => {
      await mcp?.close();
      await h?.close();
    });

    it('a guide created and shaped over REST equals one made the same way over MCP', async () => {
      const shape = {
        headline: 'Five lakes in a week',
        storeTags: ['lakes', 'hiking'],
        country: 'si',
        reviewsShown: false,
      };
      const region = { label: 'Bled', centerLat: 46.36, centerLon: 14.09, defaultZoom: 11 };
      const viaRest = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Lakes of Slovenia' });
      assert.equal(viaRest.status, 201);
      const viaMcp = await callTool(mcp, 'create_guide', { name: 'Lakes of Slovenia' });
      assert.equal(viaMcp.isError, false);
      assert.deepEqual(stripVolatile(viaMcp.body), stripVolatile(viaRest.body));
      assert.equal(viaMcp.structured, undefined, 'the record is sent once, as the text');
      const restId = viaRest.body.productId as string;
      const mcpId = viaMcp.body.productId as string;
      assert.notEqual(restId, mcpId);

      const r1 = await rest(h.baseUrl, h.alice.writeKey, 'PATCH', `/guides/${restId}`, shape);
      const m1 = await callTool(mcp, 'update_guide', { productId: mcpId, ...shape });
      assert.equal(r1.status, 200);
      assert.deepEqual(stripVolatile(m1.body), stripVolatile(r1.body));
      const r2 = await rest(h.baseUrl, h.alice.writeKey, 'PUT', `/guides/${restId}/region`, region);
      const m2 = await callTool(mcp, 'set_guide_region', { productId: mcpId, ...region });
      assert.deepEqual({ ...m2.body, productId: 'x' }, { ...r2.body, productId: 'x' });
      const r3 = await rest(h.baseUrl, h.alice.writeKey, 'PUT', `/guides/${restId}/price`, {
        amountMinor: 1900,
        currency: 'EUR',
      });
      const m3 = await callTool(mcp, 'set_guide_price', { productId: mcpId, amountMinor: 1900, currency: 'EUR' });
      assert.deepEqual(Object.keys(m3.body).sort(), Object.keys(r3.body).sort());
      assert.deepEqual([m3.body.amountMinor, m3.body.currency], [r3.body.amountMinor, r3.body.currency]);

      const readRest = await rest(h.baseUrl, h.alice.readKey, 'GET', `/guides/${restId}`);
      const readMcp = await callTool(mcp, 'get_guide', { productId: mcpId });
      assert.deepEqual(stripVolatile(readMcp.body), stripVolatile(readRest.body));
      assert.equal(readRest.body.country, 'SI');
      assert.deepEqual(readRest.body.price, { amountMinor: 1900, currency: 'eur' });
    });

    it('get_guide of one guide answers the same body over REST and MCP', async () => {
      const created = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Read twice' });
      const id = created.body.productId as string;
      await rest(h.baseUrl, h.alice.writeKey, 'PUT', `/guides/${id}/region`, {
        label: 'Somewhere',
        bbox: [1, 2, 3, 4],
      });
      const viaRest = await rest(h.baseUrl, h.alice.writeKey, 'GET', `/guides/${id}`);
      const viaMcp = await callTool(mcp, 'get_guide', { productId: id });
      assert.equal(viaRest.status, 200);
      assert.equal(viaMcp.isError, false);
      assert.deepEqual(viaMcp.body, viaRest.body);
      assert.equal(viaMcp.structured, undefined, 'the record is sent once, as the text');
      for (const name of ['get_profile', 'whoami', 'list_guides']) {
        const op = h.app.registry.get(name) as AnyOperation;
        const r = await rest(h.baseUrl, h.alice.writeKey, op.method, op.path);
        const m = await callTool(mcp, name, {});
        assert.deepEqual(m.body, r.body, name);
      }
    });

    it('the same bad input gives the same error envelope over REST and MCP', async () => {
      const id = (await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Target' })).body.productId;
      for (const call of badCalls(id)) {
        const viaRest = await rest(h.baseUrl, h.alice.writeKey, call.method, call.path, call.body);
        const viaMcp = await callTool(mcp, call.name, call.args);
        const label = `${call.name} ${JSON.stringify(call.args).slice(0, 80)}`;
        assert.equal(viaMcp.isError, true, label);
        assert.ok(viaRest.body?.error?.code, label);
        assert.deepEqual(withoutRequestId(viaMcp.body), withoutRequestId(viaRest.body), label);
        assert.equal(
          viaRest.status,
          errorCatalogue[viaRest.body.error.code as keyof typeof errorCatalogue].status,
          label,
        );
        assert.deepEqual(Object.keys(viaMcp.body), ['error']);
      }
      const ro = await mcpClient(h.mcpUrl, h.alice.readKey);
      try {
        const viaMcp = await callTool(ro, 'create_guide', { name: 'No scope' });
        const viaRest = await rest(h.baseUrl, h.alice.readKey, 'POST', '/guides', { name: 'No scope' });
        assert.equal(viaRest.status, 403);
        assert.equal(viaRest.body.error.code, 'api_scope_required');
        assert.deepEqual(withoutRequestId(viaMcp.body), withoutRequestId(viaRest.body));
      } finally {
        await ro.close();
      }
    });

    it('tools/list lists every operation but the REST-only ones, with schema and annotations, nothing a model never reads', async () => {
      const { tools } = await mcp.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const ops = h.app.registry.operations;
      // This client's key may write but not publish: its list holds what it may call.
      const expected = ops.filter((op) => !op.restOnly && op.scope !== 'publish').map((op) => op.name);
      assert.deepEqual([...byName.keys()].sort(), [...expected].sort());
      assert.ok(expected.length >= 11, 'the guide and profile operations at least');
      for (const op of ops) {
        if (op.restOnly || op.scope === 'publish') continue;
        const tool = byName.get(op.name);
        assert.ok(tool, op.name);
        assert.equal(tool.title, op.title);
        assert.ok(tool.description && tool.description.length > 20, op.name);
        const schema = tool.inputSchema as { type: string; properties?: Record<string, unknown>; required?: string[] };
        assert.equal(schema.type, 'object', op.name);
        const shape = op.input.shape as Record<string, z.ZodType>;
        assert.deepEqual(
          Object.keys(schema.properties ?? {}).sort(),
          Object.keys(shape).sort(),
          `${op.name} properties`,
        );
        const required = Object.entries(shape)
          .filter(([, s]) => !isOptional(s))
          .map(([k]) => k);
        assert.deepEqual([...(schema.required ?? [])].sort(), required.sort(), `${op.name} required`);
        for (const param of op.pathParams) assert.ok(required.includes(param), `${op.name} needs {${param}}`);
        // Each hint only where it differs from MCP's default (readOnly false, destructive true,
        // idempotent false, openWorld true), read as a client reads it.
        const a = tool.annotations ?? {};
        const readOnly = a.readOnlyHint ?? false;
        assert.equal(readOnly, op.scope === 'read', `${op.name} readOnlyHint`);
        if (!readOnly) {
          assert.equal(a.destructiveHint ?? true, op.method === 'DELETE', `${op.name} destructiveHint`);
          assert.equal(a.idempotentHint ?? false, op.idempotent, `${op.name} idempotentHint`);
        } else {
          assert.equal(a.destructiveHint, undefined, `${op.name}: a read's destructiveHint means nothing`);
        }
        assert.equal(a.openWorldHint ?? true, op.openWorld, `${op.name} openWorldHint`);
        assert.equal(a.title, undefined, `${op.name}: the title is said once, as title`);
        // A PUT is idempotent unless its declaration says it adds a row on every call.
        if (op.method === 'PUT' && op.annotations?.idempotent !== false) {
          assert.equal(a.idempotentHint, true, `${op.name} idempotentHint`);
        }
        if (op.method === 'POST' || op.method === 'PATCH') assert.equal(a.idempotentHint, undefined, op.name);
        assert.equal(tool.outputSchema, undefined, `${op.name}: no output schema`);
        assert.equal(tool._meta, undefined, `${op.name}: no _meta`);
      }
      // Each call adds a price row, and set_area without areaId adds an area: neither is idempotent.
      const price = byName.get('set_guide_price');
      assert.equal(price?.annotations?.idempotentHint, undefined);
      assert.equal(byName.get('set_area')?.annotations?.idempotentHint, undefined);
      assert.equal(price?.annotations?.readOnlyHint, undefined);
      assert.equal(byName.get('get_guide')?.annotations?.readOnlyHint, true);
      assert.equal(byName.get('delete_spot')?.annotations?.destructiveHint, true);
      assert.equal(byName.get('create_guide')?.annotations?.destructiveHint, false);
    });

    it('a field a tool does not list is refused, though its schema leaves additionalProperties out', async () => {
      const { tools } = await mcp.listTools();
      const guide = tools.find((t) => t.name === 'create_guide');
      assert.ok(guide);
      assert.equal((guide.inputSchema as { additionalProperties?: unknown }).additionalProperties, undefined);
      const viaMcp = await callTool(mcp, 'create_guide', { name: 'Unknown field', colour: 'red' });
      assert.equal(viaMcp.isError, true);
      assert.equal(viaMcp.body.error.code, 'invalid_argument');
      assert.match(viaMcp.body.error.message, /colour/);
      const unknownTool = await mcp.callTool({ name: 'no_such_tool', arguments: {} }).then(
        (r) => r,
        (err: unknown) => err,
      );
      assert.ok(unknownTool instanceof Error || (unknownTool as { isError?: boolean }).isError === true);
    });
  });
}
