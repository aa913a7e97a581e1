import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AnyOperation } from '../../src/core/operation.ts';
import { assertError, withoutRequestId } from './answers.ts';
import { ID as EXAMPLE_ID } from './example-story.ts';
import type { Harness } from './harness.ts';
import { type HttpAnswer, rest } from './http.ts';
import { flat } from './images.ts';
import { callTool, mcpClient } from './mcp.ts';
import { putOnSale } from './sale-guide.ts';

/*
 * Tenant isolation, for operations whose path holds an id: another creator's id and an id that does
 * not exist give identical 404 not_found answers, on REST and MCP. test/isolation.test.ts runs the
 * checks over the whole registry; a test's throwaway resource runs them over its own operations.
 */

type OwnedIds = Record<string, string>;

/** The link the owner's seeded spot holds (TEST-NET-1: never reachable, refused by the link guard). */
const OWNED_LINK = 'https://192.0.2.1/owned';
/**
 * The owner's answer where the seeded guide (a draft, no price) cannot succeed: a refusal past the
 * id lookup still shows the id resolved to the owner's row.
 */
const OWNER_REFUSALS: Record<string, string> = { publish_changes: 'not_publishable' };

/**
 * Every operation whose path holds an id is called with its declared example: its path ids are the
 * call's own, every other id in it becomes the owner's record of the same kind (by prefix), and
 * `expectedUpdatedAt` goes (the owner's rows are not the example's). So a new operation is covered
 * by declaring its example, with no edit here.
 */
function exampleInputFor(op: AnyOperation, owned: OwnedIds): Record<string, unknown> {
  const byPrefix = new Map(Object.values(owned).map((id) => [id.slice(0, id.indexOf('_')), id]));
  const owners = (value: unknown): unknown => {
    if (typeof value === 'string')
      return EXAMPLE_ID.test(value) ? (byPrefix.get(value.split('_')[0] as string) ?? value) : value;
    if (Array.isArray(value)) return value.map(owners);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'expectedUpdatedAt')
        .map(([k, v]) => [k, owners(v)]),
    );
  };
  const input = Object.entries(op.example.input).filter(([k]) => !op.pathParams.includes(k));
  return owners(Object.fromEntries(input)) as Record<string, unknown>;
}

/**
 * Where an example names what the seeded guide does not hold (the examples' spot keys, property
 * keys and links), the input the owner can succeed with instead. Only such examples need a line here:
 * assertOwnerSucceeds names the operation whose example the seed cannot serve.
 */
const INPUTS_BEYOND_THE_SEED: Record<string, Record<string, unknown>> = {
  create_spot: { name: 'Taken over' },
  upsert_spots: { spots: [{ spotKey: 'taken-over', name: 'Taken over' }] },
  create_facility: { kind: 'food', name: 'Taken over' },
  set_route_spots: { spotKeys: [] },
  set_chapter_members: { members: [] },
  set_chapter_pages: { pages: [] },
  set_itinerary_days: { days: [] },
  // The seeded spot's link is on a documentation address the guard refuses without sending a byte.
  check_links: {},
  set_link_verified: { url: OWNED_LINK, verified: true },
  save_sales_page_draft: { headline: 'Taken over' },
};

/**
 * How the owner gets a real id of each kind a path can hold, in order (later ones may use earlier
 * ones). A path parameter of a new kind must be added here.
 */
const SEEDS: Array<[string, (h: Harness, key: string, owned: OwnedIds) => Promise<string>]> = [
  ['productId', (h, key) => createdId(rest(h.baseUrl, key, 'POST', '/guides', { name: 'Owned' }), 'productId')],
  [
    'propertyDefId',
    (h, key, owned) =>
      createdId(
        rest(h.baseUrl, key, 'POST', `/guides/${owned.productId}/properties`, { label: 'Surface', kind: 'shortLabel' }),
        'propertyDefId',
      ),
  ],
  [
    'spotId',
    (h, key, owned) =>
      createdId(
        rest(h.baseUrl, key, 'POST', `/guides/${owned.productId}/spots`, {
          name: 'Lookout',
          links: [{ kind: 'official', url: OWNED_LINK }],
        }),
        'spotId',
      ),
  ],
  [
    'areaId',
    async (h, key, owned) => {
      const res = await rest(h.baseUrl, key, 'PUT', `/guides/${owned.productId}/areas`, { name: 'Owned park' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.area.id as string;
    },
  ],
  [
    'facilityId',
    (h, key, owned) =>
      createdId(
        rest(h.baseUrl, key, 'POST', `/guides/${owned.productId}/facilities`, { kind: 'hut', name: 'Owned hut' }),
        'facilityId',
      ),
  ],
  [
    'routeId',
    (h, key, owned) =>
      createdId(rest(h.baseUrl, key, 'POST', `/guides/${owned.productId}/routes`, { name: 'Owned road' }), 'routeId'),
  ],
  [
    'hikeId',
    (h, key, owned) =>
      createdId(rest(h.baseUrl, key, 'POST', `/guides/${owned.productId}/hikes`, { name: 'Owned hike' }), 'hikeId'),
  ],
  [
    'collectionId',
    (h, key, owned) =>
      createdId(
        rest(h.baseUrl, key, 'POST', `/guides/${owned.productId}/chapters`, { name: 'Owned chapter', kind: 'chapter' }),
        'collectionId',
      ),
  ],
  [
    'itineraryId',
    (h, key, owned) =>
      createdId(
        rest(h.baseUrl, key, 'POST', `/guides/${owned.productId}/itineraries`, { name: 'Owned trip' }),
        'itineraryId',
      ),
  ],
  [
    // The guide goes on sale, which writes its release 1: before the uncredited photo, which would block it.
    'release',
    async (h, key, owned) => {
      const price = await rest(h.baseUrl, key, 'PUT', `/guides/${owned.productId}/price`, {
        amountMinor: 1500,
        currency: 'eur',
      });
      assert.equal(price.status, 200, JSON.stringify(price.body));
      await putOnSale(h, owned.productId as string);
      return '1';
    },
  ],
  [
    'mediaId',
    async (h, key, owned) => {
      const res = await fetch(`${h.baseUrl}/media/upload?productId=${owned.productId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' },
        body: new Uint8Array(await flat(16, 16).png().toBuffer()),
      });
      const body = (await res.json()) as { mediaId?: string };
      assert.equal(res.status, 201, JSON.stringify(body));
      return body.mediaId as string;
    },
  ],
  [
    // A change of the guide's own name: the last seed, so no later one touches the guide and undoing it (undo_changes' example) succeeds.
    'changeId',
    async (h, key, owned) => {
      const renamed = await rest(h.baseUrl, key, 'PATCH', `/guides/${owned.productId}`, { name: 'Owned, renamed' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      const history = await rest(h.baseUrl, key, 'GET', `/guides/${owned.productId}/changes?limit=1`);
      return history.body.changes[0].changeId as string;
    },
  ],
];

async function createdId(answer: Promise<HttpAnswer>, field: string): Promise<string> {
  const res = await answer;
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const id = res.body[field];
  assert.ok(typeof id === 'string' && id.length > 0, `the answer carries ${field}`);
  return id;
}

async function seedOwned(h: Harness, key: string): Promise<OwnedIds> {
  const owned: OwnedIds = {};
  for (const [param, seed] of SEEDS) owned[param] = await seed(h, key, owned);
  return owned;
}

function idOperations(ops: readonly AnyOperation[]): AnyOperation[] {
  return ops.filter((op) => op.pathParams.length > 0);
}

function inputFor(op: AnyOperation, owned: OwnedIds): Record<string, unknown> {
  return INPUTS_BEYOND_THE_SEED[op.name] ?? exampleInputFor(op, owned);
}

/**
 * The same call on someone else's ids and on ids that do not exist must read the same. A number in
 * a path (a release) names a record only within the guide beside it, so it stays as it is: the guide
 * is the other creator's, or missing.
 */
function withIds(op: AnyOperation, owned: OwnedIds, fake: boolean): Record<string, string | number> {
  const ids: Record<string, string | number> = {};
  for (const param of op.pathParams) {
    const real = owned[param];
    assert.ok(real, `${op.name}: no owned id for {${param}}: add a seed for it in SEEDS`);
    const prefix = real.slice(0, real.indexOf('_') + 1);
    if (/^\d+$/.test(real)) ids[param] = Number(real);
    else ids[param] = fake ? `${prefix}${randomBytes(12).toString('base64url')}` : real;
  }
  return ids;
}

function restCall(
  baseUrl: string,
  key: string,
  op: AnyOperation,
  ids: Record<string, string | number>,
  owned: OwnedIds,
): Promise<HttpAnswer> {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, p: string) => encodeURIComponent(String(ids[p])));
  if (op.body && op.body.kind !== 'json') return fileCall(baseUrl, key, path);
  const input = inputFor(op, owned);
  if (op.method === 'GET' || op.method === 'DELETE') {
    const query = new URLSearchParams(
      Object.entries(input).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return rest(baseUrl, key, op.method, query ? `${path}?${query}` : path);
  }
  return rest(baseUrl, key, op.method, path, input);
}

/** An upload with an id in its path (a map file for a guide's import): a small file as the raw body. */
async function fileCall(baseUrl: string, key: string, path: string): Promise<HttpAnswer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/geo+json' },
    body: '{"type":"FeatureCollection","features":[]}',
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** An answer with the ids it was asked about replaced, so two answers can be compared whole. */
function normalized(answer: unknown, ids: Record<string, string | number>): unknown {
  let text = JSON.stringify(withoutRequestId(answer));
  for (const [param, id] of Object.entries(ids)) if (typeof id === 'string') text = text.replaceAll(id, `<${param}>`);
  return JSON.parse(text);
}

/**
 * What the owner reads through every read (GET) with an id: bob's attempts must not change it. A
 * preview link is new each time, and so is the seal of a page's cursor and of a download address
 * (a new nonce): not compared.
 */
async function ownerView(h: Harness, ops: readonly AnyOperation[], owned: OwnedIds): Promise<Record<string, unknown>> {
  const view: Record<string, unknown> = {};
  for (const op of idOperations(ops).filter((o) => o.readOnly && o.method === 'GET')) {
    const res = await restCall(h.baseUrl, h.alice.readKey, op, withIds(op, owned, false), owned);
    assert.equal(res.status, 200, `${op.name}: ${JSON.stringify(res.body)}`);
    const { nextCursor: _resealed, ...page } = res.body as Record<string, unknown>;
    if (typeof page.url === 'string' && page.url.includes('/downloads/')) page.url = '<sealed download address>';
    view[op.name] = page;
  }
  return view;
}

/** REST: each of these operations with an id answers another creator's id exactly like a missing one. */
export async function assertRestIsolation(h: Harness, all: readonly AnyOperation[]): Promise<void> {
  const ops = idOperations(all);
  assert.ok(ops.length > 0);
  const owned = await seedOwned(h, h.alice.writeKey);
  const before = await ownerView(h, all, owned);
  for (const op of ops) {
    const realIds = withIds(op, owned, false);
    const fakeIds = withIds(op, owned, true);
    const theirs = await restCall(h.baseUrl, h.bob.publishKey, op, realIds, owned);
    const missing = await restCall(h.baseUrl, h.bob.publishKey, op, fakeIds, owned);
    assertError(theirs, 'not_found');
    assertError(missing, 'not_found');
    assert.deepEqual(normalized(theirs.body, realIds), normalized(missing.body, fakeIds), op.name);
  }
  assert.deepEqual(await ownerView(h, all, owned), before, "bob's calls changed nothing of alice's");
}

/** MCP: each of these operations that is a tool with an id answers another creator's id exactly like a missing one. */
export async function assertMcpIsolation(h: Harness, all: readonly AnyOperation[]): Promise<void> {
  const tools = new Set(h.app.registry.tools);
  const ops = idOperations(all.filter((op) => tools.has(op)));
  assert.ok(ops.length > 0);
  const owned = await seedOwned(h, h.alice.writeKey);
  const before = await ownerView(h, all, owned);
  const client = await mcpClient(h.mcpUrl, h.bob.publishKey);
  try {
    for (const op of ops) {
      const realIds = withIds(op, owned, false);
      const fakeIds = withIds(op, owned, true);
      const theirs = await callTool(client, op.name, { ...inputFor(op, owned), ...realIds });
      const missing = await callTool(client, op.name, { ...inputFor(op, owned), ...fakeIds });
      assert.equal(theirs.isError, true, op.name);
      assert.equal(missing.isError, true, op.name);
      assert.equal(theirs.body.error.code, 'not_found', op.name);
      assert.deepEqual(normalized(theirs.body, realIds), normalized(missing.body, fakeIds), op.name);
    }
  } finally {
    await client.close();
  }
  assert.deepEqual(await ownerView(h, all, owned), before, "bob's calls changed nothing of alice's");
}

/** The owner succeeds with the same inputs the isolation checks use, on each of these operations with an id. */
export async function assertOwnerSucceeds(h: Harness, all: readonly AnyOperation[]): Promise<void> {
  for (const op of idOperations(all)) {
    const owned = await seedOwned(h, h.alice.publishKey);
    const res = await restCall(h.baseUrl, h.alice.publishKey, op, withIds(op, owned, false), owned);
    const refusal = OWNER_REFUSALS[op.name];
    if (refusal) {
      assert.equal((res.body as { error?: { code?: string } }).error?.code, refusal, op.name);
      continue;
    }
    assert.equal(res.status, op.successStatus, `${op.name}: ${JSON.stringify(res.body)}`);
  }
}
