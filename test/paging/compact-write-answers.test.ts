import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { fullSpot, seededRandom } from '../../bench/spot-content.ts';
import { assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, noRateLimits } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { answerOf } from '../helpers/mcp.ts';
import { type Received, type ReceivingLine, receivingClient, receivingLines } from '../helpers/received.ts';

/**
 * Bulk writes answer compact by default (ids, keys, counts, warnings) and the records whole with
 * `answer: "full"` (docs/decisions/transports.md, "Compact write answers"). Each write is made with
 * 20 items of a guide of 20 full spots, over REST and through both MCP client lines, and its answer
 * measured as the client receives it (REST's body, MCP's decoded HTTP body: test/helpers/received.ts):
 * the compact answer holds its fields and stays under its budget; the same call with answer full,
 * what each of these writes answered before, passes that budget (so the budget would fail the old
 * echo) and equals what a read returns, over REST and both MCP lines.
 */

const TODAY = '2026-11-24';
const SPOTS = 20;

interface Ids {
  productId: string;
  spotKeys: string[];
  spotIds: string[];
  areaId: string;
  collectionId: string;
  chapterId: string;
  itineraryId: string;
  routeIds: string[];
  propertyDefIds: string[];
  urls: string[];
}

interface Case {
  name: string;
  /** The most bytes the compact answer may take, as REST sends it and as either MCP line receives it. */
  budget: number;
  /** The compact answer's fields (`warnings` aside, which any write may add). */
  fields: string[];
  /** Fields of the compact answer alone: a count the full record shows as its list. */
  compactOnly?: string[];
  args(ids: Ids): Record<string, unknown>;
  /** What a read returns for what the full answer shows. */
  read(api: Api, ids: Ids): Promise<unknown>;
  /** The part of the full answer the read shows. */
  shown(full: Record<string, any>): unknown;
}

const byId = <T extends Record<string, unknown>>(list: T[], key: string, id: string) =>
  list.find((item) => item[key] === id);

const cases: Case[] = [
  {
    name: 'upsert_spots',
    budget: 2560,
    fields: ['productId', 'created', 'updated', 'unchanged', 'spots'],
    args: (ids) => ({ productId: ids.productId, spots: spotBatch(ids.areaId) }),
    read: async (api, ids) => (await api.call('list_spots', { productId: ids.productId })).body.spots,
    shown: (full) => full.spots,
  },
  {
    name: 'set_area',
    budget: 512,
    fields: ['productId', 'created', 'area'],
    args: (ids) => ({ productId: ids.productId, areaId: ids.areaId, ...AREA }),
    read: async (api, ids) =>
      byId((await api.call('list_areas', { productId: ids.productId })).body.areas, 'id', ids.areaId),
    shown: (full) => full.area,
  },
  {
    name: 'set_chapter_members',
    budget: 512,
    fields: ['collectionId', 'kind', 'name', 'slug', 'order', 'updatedAt', 'memberCount'],
    args: (ids) => ({ collectionId: ids.collectionId, members: ids.spotKeys.map((spotKey) => ({ spotKey })) }),
    read: (api, ids) => chapterRead(api, ids, ids.collectionId),
    shown: (full) => full,
  },
  {
    name: 'set_chapter_intro',
    budget: 512,
    fields: ['collectionId', 'kind', 'name', 'slug', 'order', 'updatedAt', 'memberCount'],
    args: (ids) => ({
      collectionId: ids.chapterId,
      intro: {
        coverTitle: 'The lakes, one by one',
        sections: ids.spotKeys.map((key, i) => ({ title: `Why ${key}`, paragraphs: [`Reason ${i}: the light.`] })),
      },
    }),
    read: (api, ids) => chapterRead(api, ids, ids.chapterId),
    shown: (full) => full,
  },
  {
    name: 'set_chapter_pages',
    budget: 512,
    fields: ['collectionId', 'kind', 'name', 'slug', 'order', 'updatedAt', 'memberCount'],
    args: (ids) => ({
      collectionId: ids.chapterId,
      pages: [{ title: 'Every spot', blocks: ids.spotKeys.map((spotKey) => ({ kind: 'spot', spotKey })) }],
    }),
    read: (api, ids) => chapterRead(api, ids, ids.chapterId),
    shown: (full) => full,
  },
  {
    name: 'set_itinerary_days',
    budget: 512,
    fields: ['itineraryId', 'name', 'order', 'archived', 'updatedAt', 'dayCount'],
    compactOnly: ['dayCount'],
    args: (ids) => ({
      itineraryId: ids.itineraryId,
      days: [0, 1].map((d) => ({
        title: `Day ${d + 1}`,
        stops: ids.spotKeys.slice(d * 10, d * 10 + 10).map((spotKey) => ({ kind: 'spot', spotKey, when: 'morning' })),
      })),
    }),
    read: async (api, ids) => (await api.call('get_itinerary', { itineraryId: ids.itineraryId })).body,
    shown: (full) => full,
  },
  {
    name: 'set_route_spots',
    budget: 320,
    fields: ['ok', 'routeId', 'spotCount'],
    args: (ids) => ({ routeId: ids.routeIds[0], spotKeys: ids.spotKeys }),
    read: async (api, ids) =>
      byId(
        (await api.call('list_routes', { productId: ids.productId })).body.routes,
        'routeId',
        ids.routeIds[0] as string,
      )?.spotKeys,
    shown: (full) => full.spotKeys,
  },
  {
    name: 'set_spot_routes',
    budget: 320,
    fields: ['ok', 'spotId', 'routeCount'],
    args: (ids) => ({ spotId: ids.spotIds[1], routeIds: [...ids.routeIds].reverse() }),
    read: async (api, ids) => {
      const { routes } = (await api.call('list_routes', { productId: ids.productId, limit: 200 })).body;
      return routes
        .filter((r: { spotKeys: string[] }) => r.spotKeys.includes(ids.spotKeys[1] as string))
        .map((r: { routeId: string }) => r.routeId);
    },
    shown: (full) => full.routeIds,
  },
  {
    name: 'reorder_properties',
    budget: 2560,
    fields: ['productId', 'schemaVersion', 'properties'],
    args: (ids) => ({ productId: ids.productId, propertyDefIds: [...ids.propertyDefIds].reverse() }),
    read: async (api, ids) => (await api.call('list_properties', { productId: ids.productId })).body.properties,
    shown: (full) => full.properties,
  },
  {
    name: 'set_link_verified',
    budget: 320,
    fields: ['ok', 'productId', 'marked', 'verified', 'verifiedAt'],
    args: (ids) => ({ productId: ids.productId, urls: ids.urls, verified: true }),
    read: async (api, ids) => {
      const report = await api.call('get_link_report', { productId: ids.productId, limit: 500 });
      return report.body.links
        .filter((l: { verified: boolean }) => l.verified)
        .map((l: { url: string }) => l.url)
        .sort();
    },
    shown: (full) => [...full.urls].sort(),
  },
];

const AREA = {
  name: 'Triglav National Park',
  kind: 'park',
  note: 'Stay on marked trails; no drones.',
  rules: [{ text: 'Vehicles need a permit to drive up to Vogel', kind: 'vehicle', months: [6, 7, 8, 9] }],
  fees: [{ label: 'Parking at Pokljuka', amount: 10, currency: 'EUR', per: 'day' }],
};

/** The guide's 20 full spots (about 700 bytes each as stored), in the area. */
function spotBatch(areaId?: string): Array<Record<string, unknown>> {
  const rng = seededRandom(28);
  return Array.from({ length: SPOTS }, (_, i) => ({ ...fullSpot(i, rng, TODAY), ...(areaId && { areaId }) }));
}

async function chapterRead(api: Api, ids: Ids, collectionId: string): Promise<unknown> {
  return byId(
    (await api.call('list_chapters', { productId: ids.productId })).body.chapters,
    'collectionId',
    collectionId,
  );
}

/** A guide of 20 spots, with what each write above works on. */
async function seed(api: Api): Promise<Ids> {
  const made = async (name: string, args: Record<string, unknown>, status = 200) => {
    const a = await api.call(name, args);
    assertOk(a, status);
    return a.body;
  };
  const productId = (await made('create_guide', { name: 'Twenty spots' }, 201)).productId as string;
  const areaId = (await made('set_area', { productId, name: 'Park' })).area.id as string;
  const spots = (await made('upsert_spots', { productId, spots: spotBatch() })).spots as Array<{
    spotId: string;
    spotKey: string;
  }>;
  const collectionId = (await made('create_chapter', { productId, name: 'All of them' }, 201)).collectionId;
  const chapterId = (await made('create_chapter', { productId, name: 'Front', kind: 'chapter' }, 201)).collectionId;
  const itineraryId = (await made('create_itinerary', { productId, name: 'Two days' }, 201)).itineraryId;
  const routeIds: string[] = [];
  for (let i = 0; i < SPOTS; i++) {
    routeIds.push((await made('create_route', { productId, name: `Drive ${i + 1}`, mode: 'car' }, 201)).routeId);
  }
  const propertyDefIds: string[] = [];
  for (let i = 0; i < SPOTS; i++) {
    const label = `Property number ${i + 1}`;
    propertyDefIds.push((await made('create_property', { productId, label, kind: 'shortLabel' }, 201)).propertyDefId);
  }
  const report = await made('get_link_report', { productId, limit: 500 });
  const urls = (report.links as Array<{ url: string }>).map((l) => l.url).filter((url) => url.startsWith('https:'));
  return {
    productId,
    spotKeys: spots.map((s) => s.spotKey),
    spotIds: spots.map((s) => s.spotId),
    areaId,
    collectionId,
    chapterId,
    itineraryId,
    routeIds,
    propertyDefIds,
    urls: urls.slice(0, SPOTS),
  };
}

/** The write sent over REST: its status, its body and the bytes of the body. */
async function restWrite(h: Harness, name: string, args: Record<string, unknown>) {
  const op = h.app.registry.get(name);
  assert.ok(op, name);
  const fields = { ...args };
  let path = op.path;
  for (const param of op.pathParams) {
    path = path.replace(`{${param}}`, encodeURIComponent(String(fields[param])));
    delete fields[param];
  }
  const res = await fetch(`${h.baseUrl}${path}`, {
    method: op.method,
    headers: { authorization: `Bearer ${h.alice.writeKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(fields),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, any>, bytes: Buffer.byteLength(text) };
}

function fieldsOf(body: Record<string, unknown>): string[] {
  return Object.keys(body)
    .filter((field) => field !== 'warnings')
    .sort();
}

for (const { dialect, skip } of await testDialects()) {
  describe(`bulk writes answer compact unless asked full (${dialect})`, { skip }, () => {
    let h: Harness;
    let rest: Api;
    let ids: Ids;
    const received: Received[] = [];
    const mcp = new Map<ReceivingLine, Client>();
    const sizes: string[] = [];
    before(async () => {
      h = await startServer({ dialect, env: noRateLimits });
      h.clock.set(`${TODAY}T08:00:00Z`);
      rest = apiFor(h, 'rest', h.alice.writeKey);
      ids = await seed(rest);
      for (const line of receivingLines) {
        mcp.set(line, await receivingClient(line, h.mcpUrl, h.alice.writeKey, received));
      }
    });
    after(async () => {
      process.stdout.write(`# write answers with ${SPOTS} items (${dialect}):\n# ${sizes.join('\n# ')}\n`);
      for (const client of mcp.values()) await client.close();
      await rest?.close();
      await h?.close();
    });

    for (const c of cases) {
      it(`${c.name}: compact by default over REST and MCP, under ${c.budget} bytes; full is what a read returns`, async () => {
        const args = c.args(ids);
        const compact = await restWrite(h, c.name, args);
        assert.equal(compact.status, 200, JSON.stringify(compact.body));
        assert.deepEqual(fieldsOf(compact.body), [...c.fields].sort(), `${c.name}: the compact answer's fields`);
        const over: string[] = [];
        const line = [`${c.name.padEnd(20)} compact REST ${compact.bytes} B`];
        if (compact.bytes > c.budget) over.push(`REST ${compact.bytes}`);
        for (const [name, client] of mcp) {
          const answer = answerOf(await client.callTool({ name: c.name, arguments: args }));
          assert.equal(answer.isError, false, `${c.name} (${name}): ${JSON.stringify(answer.body)}`);
          assert.deepEqual(
            fieldsOf(answer.body),
            [...c.fields].sort(),
            `${c.name} (${name}): the compact answer's fields`,
          );
          const bytes = received.at(-1)?.bytes ?? Number.POSITIVE_INFINITY;
          assert.equal(received.at(-1)?.tool, c.name, `${name}: the answer to ${c.name} was recorded`);
          line.push(`MCP ${bytes} B ${name}`);
          if (bytes > c.budget) over.push(`${name} ${bytes}`);
        }
        sizes.push(line.join(', '));
        assert.deepEqual(over, [], `${c.name}: compact answers over ${c.budget} bytes`);
        const full = await restWrite(h, c.name, { ...args, answer: 'full' });
        assert.equal(full.status, 200, JSON.stringify(full.body));
        line.push(`full REST ${full.bytes} B`);
        sizes[sizes.length - 1] = line.join(', ');
        assert.ok(full.bytes > c.budget, `${c.name}: the full answer (${full.bytes} B) is what the budget keeps out`);
        for (const field of c.fields.filter((f) => !c.compactOnly?.includes(f))) {
          assert.ok(field in full.body, `${c.name}: full keeps ${field}`);
        }
        assert.deepEqual(c.shown(full.body), await c.read(rest, ids), `${c.name}: answer full is what a read returns`);
        for (const [name, client] of mcp) {
          const answer = answerOf(await client.callTool({ name: c.name, arguments: { ...args, answer: 'full' } }));
          assert.equal(answer.isError, false, `${c.name} (${name}): ${JSON.stringify(answer.body)}`);
          assert.deepEqual(
            c.shown(answer.body),
            await c.read(rest, ids),
            `${c.name} (${name}): full is what a read returns`,
          );
        }
      });
    }
  });
}
