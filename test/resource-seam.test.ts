import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { z } from 'zod';
import { refuse } from '../src/core/errors.ts';
import { openOwned } from '../src/core/guide-records.ts';
import { newId } from '../src/core/new-id.ts';
import { defineOperation } from '../src/core/operation.ts';
import type { Resource } from '../src/core/resource.ts';
import { ScopedStore, type StoreFactories, type StoreScope, type Stores } from '../src/core/stores.ts';
import { SINCE_2026_09_30 } from '../src/core/versions.ts';
import { productIdSchema } from '../src/shared/id-fields.ts';
import { assertError, assertOk } from './helpers/answers.ts';
import { type Api, apiFor } from './helpers/api.ts';
import { testDialects } from './helpers/dialects.ts';
import { newGuide } from './helpers/fixtures.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { rest } from './helpers/http.ts';
import { assertMcpIsolation, assertOwnerSucceeds, assertRestIsolation } from './helpers/isolation.ts';
import { callTool, mcpClient } from './helpers/mcp.ts';

/**
 * Adding a resource is one folder and one registry line. Here the folder's worth of declaration
 * (its table and migration, its store, two operations with their examples, its tag, and the
 * references its records hold to spots) is handed to the server as the registry line would be, and
 * with no other edit it is served over REST and MCP, listed in the OpenAPI document, held to tenant
 * isolation by its examples, and its references to spots go when a spot is deleted, inside the
 * delete's transaction, which names no holder.
 */

// --- the throwaway resource's folder: notes on a guide's spots ------------------------------------

/** Its table (a real resource merges it into `Database`; here the project's types stay free of it). */
interface ThrowawayNotesTable {
  id: string;
  guide_id: string;
  /** A spot of the guide, in a column no foreign key guards: the references declaration keeps it true. */
  spot_id: string;
  text: string;
}

const notesMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('throwaway_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
      .addColumn('spot_id', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .execute();
  },
};

interface Note {
  noteId: string;
  spotId: string;
  text: string;
}

class NotesStore extends ScopedStore {
  private get notes() {
    return this.db as unknown as Kysely<{ throwaway_notes: ThrowawayNotesTable }>;
  }

  async add(guideId: string, spotId: string, text: string): Promise<Note> {
    const noteId = newId('note');
    await this.notes
      .insertInto('throwaway_notes')
      .values({ id: noteId, guide_id: guideId, spot_id: spotId, text })
      .execute();
    return { noteId, spotId, text };
  }

  async ofGuide(guideId: string): Promise<Note[]> {
    const rows = await this.notes
      .selectFrom('throwaway_notes')
      .select(['id', 'spot_id', 'text'])
      .where('guide_id', '=', guideId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ noteId: r.id, spotId: r.spot_id, text: r.text }));
  }

  async removeSpot(spotId: string): Promise<void> {
    await this.notes.deleteFrom('throwaway_notes').where('spot_id', '=', spotId).execute();
  }
}

/** How a handler reaches the store; a real resource merges `notes` into `Stores` instead. */
const notesOf = (stores: Stores) => (stores as unknown as { notes: NotesStore }).notes;

const noteSchema = z.object({ noteId: z.string(), spotId: z.string(), text: z.string() });

const examples = {
  create_throwaway_note: {
    input: { productId: 'prod_6Jx1nQd2mWkVb0a1', spotId: 'sp_Lk2mQ9xVb0a1Jx1n', text: 'Check the ferry times' },
    output: { noteId: 'note_P0mXc3s1vQdK2aZb', spotId: 'sp_Lk2mQ9xVb0a1Jx1n', text: 'Check the ferry times' },
  },
  list_throwaway_notes: {
    input: { productId: 'prod_6Jx1nQd2mWkVb0a1' },
    output: {
      productId: 'prod_6Jx1nQd2mWkVb0a1',
      notes: [{ noteId: 'note_P0mXc3s1vQdK2aZb', spotId: 'sp_Lk2mQ9xVb0a1Jx1n', text: 'Check the ferry times' }],
    },
  },
};

const createNote = defineOperation({
  name: 'create_throwaway_note',
  title: "Add a note to a guide's spot",
  method: 'POST',
  path: '/guides/{productId}/throwaway-notes',
  scope: 'write',
  stability: 'beta',
  since: SINCE_2026_09_30,
  description: 'Adds a private note to a spot of the guide; the note goes when the spot does.',
  input: z.object({
    productId: productIdSchema,
    spotId: z.string().describe('A spot of this guide'),
    text: z.string().min(1).max(200).describe('The note'),
  }),
  output: noteSchema,
  successStatus: 201,
  example: examples.create_throwaway_note,
  location: (_out, input) => `/guides/${input.productId}/throwaway-notes`,
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const spot = await openOwned(ctx, ctx.stores.spots, input.spotId);
    if (spot.guideId !== guide.id) throw refuse('spotId', 'the spot is in another guide.');
    return notesOf(ctx.stores).add(guide.id, spot.spotId, input.text);
  },
});

const listNotes = defineOperation({
  name: 'list_throwaway_notes',
  title: "List a guide's notes",
  method: 'GET',
  path: '/guides/{productId}/throwaway-notes',
  scope: 'read',
  stability: 'beta',
  since: SINCE_2026_09_30,
  description: "Lists the guide's notes, oldest id first.",
  input: z.object({ productId: productIdSchema }),
  output: z.object({ productId: z.string(), notes: z.array(noteSchema) }),
  example: examples.list_throwaway_notes,
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    return { productId: guide.id, notes: await notesOf(ctx.stores).ofGuide(guide.id) };
  },
});

const throwawayNotesResource: Resource = {
  tag: { name: 'throwaway-notes', description: 'Notes on spots, of a resource that lives only in this test' },
  operations: [createNote, listNotes],
  stores: { notes: (scope: StoreScope) => new NotesStore(scope) } as unknown as Partial<StoreFactories>,
  usesStores: ['spots'],
  migrations: { '9999-throwaway-notes': notesMigration },
  references: [{ to: 'spot', onDelete: (spot, ctx) => notesOf(ctx.stores).removeSpot(spot.spotId) }],
};

// --- the registry line: `resources` in src/resources/index.ts, here handed to the server -----------

const registryLine = [throwawayNotesResource];

/** Declared after the notes, so its step runs once every other holder's has written. */
const failingHolder: Resource = {
  tag: { name: 'throwaway-failing-holder', description: 'A holder whose step fails' },
  operations: [],
  references: [
    {
      to: 'spot',
      async onDelete() {
        throw new Error('the last holder of the spot failed');
      },
    },
  ],
};

// --- the tests ----------------------------------------------------------------------------------

async function newSpot(api: Api, productId: string, spotKey: string): Promise<string> {
  const created = await api.call('create_spot', { productId, spotKey, name: spotKey, lat: 46.36, lon: 14.09 });
  assertOk(created, 201);
  return created.body.spotId as string;
}

async function addNote(api: Api, productId: string, spotId: string, text = 'A note'): Promise<any> {
  const added = await api.call('create_throwaway_note', { productId, spotId, text });
  assertOk(added, 201);
  return added.body;
}

/** The spots the guide's notes point at, sorted, as list_throwaway_notes reads them. */
async function notedSpots(api: Api, productId: string): Promise<string[]> {
  const listed = await api.call('list_throwaway_notes', { productId });
  assertOk(listed);
  return listed.body.notes.map((n: Note) => n.spotId).sort();
}

for (const { dialect, skip } of await testDialects()) {
  describe(`a resource added in one folder and one registry line (${dialect})`, { skip }, () => {
    let h: Harness;
    let plain: Harness;
    let failing: Harness;
    before(async () => {
      h = await startServer({ dialect, resources: registryLine });
      plain = await startServer({ dialect });
      failing = await startServer({ dialect, resources: [...registryLine, failingHolder] });
    });
    after(async () => {
      await h?.close();
      await plain?.close();
      await failing?.close();
    });

    test('is served over REST and MCP (tools/list and tools/call), its store and table shared by both', async () => {
      const api = apiFor(h, 'rest', h.alice.writeKey);
      const productId = await newGuide(api, 'Notes');
      const spotId = await newSpot(api, productId, 'lake');

      const viaRest = await rest(h.baseUrl, h.alice.writeKey, 'POST', `/guides/${productId}/throwaway-notes`, {
        spotId,
        text: 'First',
      });
      assert.equal(viaRest.status, 201, JSON.stringify(viaRest.body));
      assert.equal(viaRest.body.text, 'First');
      assert.equal(viaRest.body.spotId, spotId);
      assert.match(viaRest.body.noteId, /^note_/);

      const client = await mcpClient(h.mcpUrl, h.alice.writeKey);
      try {
        const tools = await client.listTools();
        const tool = tools.tools.find((t) => t.name === 'create_throwaway_note');
        assert.equal(tool?.description?.startsWith('Adds a private note to a spot of the guide'), true);
        assert.ok(tools.tools.some((t) => t.name === 'list_throwaway_notes'));
        const viaMcp = await callTool(client, 'create_throwaway_note', { productId, spotId, text: 'Second' });
        assert.equal(viaMcp.isError, false, JSON.stringify(viaMcp.body));
        const listed = await callTool(client, 'list_throwaway_notes', { productId });
        assert.deepEqual(
          listed.body.notes.map((n: Note) => n.text).sort(),
          ['First', 'Second'],
          'one table behind both transports',
        );
      } finally {
        await client.close();
      }

      const theirs = await rest(h.baseUrl, h.bob.writeKey, 'POST', `/guides/${productId}/throwaway-notes`, {
        spotId,
        text: 'Not mine',
      });
      assertError(theirs, 'not_found');
      const otherGuide = await newGuide(api, 'Another guide');
      assertError(
        await api.call('create_throwaway_note', { productId: otherGuide, spotId, text: 'x' }),
        'invalid_request',
        'spotId',
      );
    });

    test("its writes are in the guide's history and undone, redone, with no line of its own", async () => {
      const api = apiFor(h, 'rest', h.alice.writeKey);
      const productId = await newGuide(api, 'Noted history');
      const spotId = await newSpot(api, productId, 'lake');
      const note = await addNote(api, productId, spotId, 'Ferry at nine');
      const [change] = (await api.call('list_changes', { productId, limit: 1 })).body.changes;
      assert.equal(change.operation, 'create_throwaway_note');
      assert.deepEqual(change.records, [{ kind: 'throwaway_notes', id: note.noteId }]);
      const undo = await api.call('undo_changes', { productId, changeIds: [change.changeId] });
      assertOk(undo);
      assert.deepEqual(await notedSpots(api, productId), []);
      assertOk(await api.call('undo_changes', { productId, changeIds: [undo.body.changeId] }));
      assert.deepEqual(await notedSpots(api, productId), [spotId]);
    });

    test('is in the OpenAPI document under its own tag, with its examples', async () => {
      const doc = await rest(h.baseUrl, undefined, 'GET', '/openapi.json');
      assert.equal(doc.status, 200);
      const path = doc.body.paths['/guides/{productId}/throwaway-notes'];
      assert.equal(path?.post?.operationId, 'create_throwaway_note');
      assert.equal(path?.get?.operationId, 'list_throwaway_notes');
      assert.deepEqual(path.post.tags, ['throwaway-notes']);
      assert.deepEqual(path.get.tags, ['throwaway-notes']);
      assert.deepEqual(path.post.requestBody.content['application/json'].example, {
        spotId: 'sp_Lk2mQ9xVb0a1Jx1n',
        text: 'Check the ferry times',
      });
      assert.deepEqual(doc.body.tags.at(-1), {
        name: 'throwaway-notes',
        description: 'Notes on spots, of a resource that lives only in this test',
      });
    });

    test("tenant isolation covers its operations from their examples: another creator's id reads as a missing one", async () => {
      await assertRestIsolation(h, throwawayNotesResource.operations);
      await assertMcpIsolation(h, throwawayNotesResource.operations);
      await assertOwnerSucceeds(h, throwawayNotesResource.operations);
    });

    test('its references to spots go when a spot is deleted, over REST and MCP, and spots name no holder', async () => {
      const apis = { rest: apiFor(h, 'rest', h.alice.writeKey), mcp: apiFor(h, 'mcp', h.alice.writeKey) };
      try {
        const productId = await newGuide(apis.rest, 'Noted spots');
        const [lake, gorge, hut] = [
          await newSpot(apis.rest, productId, 'lake'),
          await newSpot(apis.rest, productId, 'gorge'),
          await newSpot(apis.rest, productId, 'hut'),
        ];
        for (const spotId of [lake, gorge, hut]) await addNote(apis.rest, productId, spotId);

        assertOk(await apis.rest.call('delete_spot', { spotId: lake }));
        assert.deepEqual(await notedSpots(apis.rest, productId), [gorge, hut].sort());
        assertOk(await apis.mcp.call('delete_spot', { spotId: gorge }));
        assert.deepEqual(await notedSpots(apis.rest, productId), [hut]);
      } finally {
        await apis.mcp.close();
      }
    });

    test('a holder step that fails fails the delete, and no holder nor the spot has changed', async () => {
      const api = apiFor(failing, 'rest', failing.alice.writeKey);
      const productId = await newGuide(api, 'A spot held everywhere');
      const spotId = await newSpot(api, productId, 'lake');
      await addNote(api, productId, spotId);
      const chapter = await api.call('create_chapter', { productId, name: 'Lakes', kind: 'chapter' });
      assertOk(chapter, 201);
      assertOk(
        await api.call('set_chapter_members', {
          collectionId: chapter.body.collectionId,
          members: [{ spotKey: 'lake' }],
        }),
      );
      const itinerary = await api.call('create_itinerary', { productId, name: 'A day at the lake', travelMode: 'car' });
      assertOk(itinerary, 201);
      const { itineraryId } = itinerary.body;
      assertOk(
        await api.call('set_itinerary_days', {
          itineraryId,
          days: [{ title: 'Lake day', stops: [{ kind: 'spot', spotKey: 'lake' }] }],
        }),
      );
      const held = async () => ({
        spot: (await api.call('get_spot', { spotId })).body,
        chapters: (await api.call('list_chapters', { productId })).body,
        itinerary: (await api.call('get_itinerary', { itineraryId })).body,
        notes: await notedSpots(api, productId),
      });
      const before = await held();
      assert.deepEqual(before.notes, [spotId]);
      assert.deepEqual(
        before.chapters.chapters[0].members.map((m: { spotKey: string }) => m.spotKey),
        ['lake'],
      );
      assert.deepEqual(before.itinerary.days[0].stops, [{ kind: 'spot', spotKey: 'lake' }]);

      assertError(await api.call('delete_spot', { spotId }), 'internal_error');
      assert.deepEqual(await held(), before);
    });

    test('is served by no other server: nothing global was touched', async () => {
      const doc = await rest(plain.baseUrl, undefined, 'GET', '/openapi.json');
      assert.equal(doc.body.paths['/guides/{productId}/throwaway-notes'], undefined);
      const res = await rest(plain.baseUrl, plain.alice.writeKey, 'POST', '/guides/prod_x/throwaway-notes', {
        text: 'x',
      });
      assert.equal(res.status, 404);
      assert.equal(h.app.registry.get('create_throwaway_note'), createNote);
      assert.equal(plain.app.registry.get('create_throwaway_note'), undefined);
    });
  });
}
