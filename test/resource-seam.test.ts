import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { z } from 'zod';
import { newId } from '../src/core/new-id.ts';
import { defineOperation } from '../src/core/operation.ts';
import type { Resource } from '../src/core/resource.ts';
import { ScopedStore, type StoreFactories, type StoreScope, type Stores } from '../src/core/stores.ts';
import { SINCE_2026_09_30 } from '../src/core/versions.ts';
import { productIdSchema } from '../src/shared/id-fields.ts';
import { testDialects } from './helpers/dialects.ts';
import { type Harness, startServer } from './helpers/harness.ts';
import { rest } from './helpers/http.ts';
import { callTool, mcpClient } from './helpers/mcp.ts';

/**
 * Adding a resource is one folder and one registry line: here the folder's worth of declaration (a
 * migration, a store, one operation with its example) is handed to the server as the registry line
 * would, and it is served over REST, MCP and the OpenAPI document with no other edit.
 */

// --- the throwaway resource's folder -------------------------------------------------------------

interface NotesTable {
  id: string;
  guide_id: string;
  text: string;
}

const notesMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('throwaway_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
      .addColumn('text', 'text', (c) => c.notNull())
      .execute();
  },
};

class NotesStore extends ScopedStore {
  // The table is not merged into `Database`, so that the project's types stay free of it.
  private get notes() {
    return this.db as unknown as Kysely<{ throwaway_notes: NotesTable }>;
  }

  async add(guideId: string, text: string): Promise<{ noteId: string; notesInGuide: number }> {
    const noteId = newId('note');
    await this.notes.insertInto('throwaway_notes').values({ id: noteId, guide_id: guideId, text }).execute();
    const { count } = await this.notes
      .selectFrom('throwaway_notes')
      .select(sql<number>`count(*)`.as('count'))
      .where('guide_id', '=', guideId)
      .executeTakeFirstOrThrow();
    return { noteId, notesInGuide: Number(count) };
  }
}

/** How a handler reaches the store; a real resource merges `notes` into `Stores` instead. */
const notesOf = (stores: Stores) => (stores as unknown as { notes: NotesStore }).notes;

const createNote = defineOperation({
  name: 'create_throwaway_note',
  title: 'Add a note to a guide',
  method: 'POST',
  path: '/guides/{productId}/throwaway-notes',
  scope: 'write',
  stability: 'beta',
  since: SINCE_2026_09_30,
  description: 'Adds a private note to the guide and answers how many it holds.',
  input: z.object({ productId: productIdSchema, text: z.string().min(1).max(200).describe('The note') }),
  output: z.object({ noteId: z.string(), text: z.string(), notesInGuide: z.number().int() }),
  successStatus: 201,
  example: {
    input: { productId: 'prod_6Jx1nQd2mWkVb0a1', text: 'Check the ferry times' },
    output: { noteId: 'note_P0mXc3s1vQdK2aZb', text: 'Check the ferry times', notesInGuide: 1 },
  },
  location: (_out, input) => `/guides/${input.productId}`,
  async handler(input, ctx) {
    const guide = await ctx.guide(input.productId);
    const added = await notesOf(ctx.stores).add(guide.id, input.text);
    return { ...added, text: input.text };
  },
});

const throwawayResource: Resource = {
  tag: { name: 'throwaway-notes', description: 'Notes of a resource that lives only in this test' },
  operations: [createNote],
  stores: { notes: (scope: StoreScope) => new NotesStore(scope) } as unknown as Partial<StoreFactories>,
  migrations: { '9999-throwaway-notes': notesMigration },
};

// --- the test -----------------------------------------------------------------------------------

for (const { dialect, skip } of await testDialects()) {
  describe(`a resource added in one folder (${dialect})`, { skip }, () => {
    let h: Harness;
    let plain: Harness;
    before(async () => {
      h = await startServer({ dialect, resources: [throwawayResource] });
      plain = await startServer({ dialect });
    });
    after(async () => {
      await h?.close();
      await plain?.close();
    });

    test('is served over REST and MCP, its store and table shared by both', async () => {
      const guide = await rest(h.baseUrl, h.alice.writeKey, 'POST', '/guides', { name: 'Notes' });
      assert.equal(guide.status, 201, JSON.stringify(guide.body));
      const productId = guide.body.productId as string;

      const viaRest = await rest(h.baseUrl, h.alice.writeKey, 'POST', `/guides/${productId}/throwaway-notes`, {
        text: 'First',
      });
      assert.equal(viaRest.status, 201, JSON.stringify(viaRest.body));
      assert.equal(viaRest.body.text, 'First');
      assert.equal(viaRest.body.notesInGuide, 1);
      assert.match(viaRest.body.noteId, /^note_/);

      const client = await mcpClient(h.mcpUrl, h.alice.writeKey);
      try {
        const tools = await client.listTools();
        assert.ok(tools.tools.some((t) => t.name === 'create_throwaway_note'));
        const viaMcp = await callTool(client, 'create_throwaway_note', { productId, text: 'Second' });
        assert.equal(viaMcp.isError, false, JSON.stringify(viaMcp.body));
        assert.equal(viaMcp.body.notesInGuide, 2);
      } finally {
        await client.close();
      }

      const theirs = await rest(h.baseUrl, h.bob.writeKey, 'POST', `/guides/${productId}/throwaway-notes`, {
        text: 'Not mine',
      });
      assert.equal(theirs.status, 404);
      assert.equal(theirs.body.error.code, 'not_found');
    });

    test('is in the OpenAPI document under its own tag, with its example', async () => {
      const doc = await rest(h.baseUrl, undefined, 'GET', '/openapi.json');
      assert.equal(doc.status, 200);
      const operation = doc.body.paths['/guides/{productId}/throwaway-notes']?.post;
      assert.equal(operation?.operationId, 'create_throwaway_note');
      assert.deepEqual(operation.tags, ['throwaway-notes']);
      assert.deepEqual(operation.requestBody.content['application/json'].example, { text: 'Check the ferry times' });
      assert.deepEqual(doc.body.tags.at(-1), {
        name: 'throwaway-notes',
        description: 'Notes of a resource that lives only in this test',
      });
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
