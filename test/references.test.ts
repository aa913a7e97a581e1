import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Resource } from '../src/core/resource.ts';
import { ScopedStore, type StoreFactories, type StoreScope, type Stores } from '../src/core/stores.ts';
import { assertError, assertOk } from './helpers/answers.ts';
import { type Api, apiFor } from './helpers/api.ts';
import { testDialects } from './helpers/dialects.ts';
import { newGuide } from './helpers/fixtures.ts';
import { type Harness, startServer } from './helpers/harness.ts';

/**
 * A reference is declared by the resource that holds it, and a delete asks the declarations: here
 * a resource that lives only in this test points at spots, and delete_spot, which names no holder,
 * takes its references out in its own transaction, or leaves everything as it was when a step fails.
 */

// --- a throwaway resource holding references to spots, in a column no foreign key guards ---------

interface SpotNotesTable {
  id: string;
  guide_id: string;
  spot_id: string;
}

const spotNotesMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('throwaway_spot_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('guide_id', 'text', (c) => c.notNull().references('guides.id').onDelete('cascade'))
      .addColumn('spot_id', 'text', (c) => c.notNull())
      .execute();
  },
};

type NotesDb = Kysely<{ throwaway_spot_notes: SpotNotesTable }>;

class SpotNotesStore extends ScopedStore {
  async removeSpot(spotId: string): Promise<void> {
    await (this.db as unknown as NotesDb).deleteFrom('throwaway_spot_notes').where('spot_id', '=', spotId).execute();
  }
}

const spotNotesOf = (stores: Stores) => (stores as unknown as { spotNotes: SpotNotesStore }).spotNotes;

const spotNotesResource: Resource = {
  tag: { name: 'throwaway-spot-notes', description: 'Notes on spots, of a resource that lives only in this test' },
  operations: [],
  stores: { spotNotes: (scope: StoreScope) => new SpotNotesStore(scope) } as unknown as Partial<StoreFactories>,
  migrations: { '9998-throwaway-spot-notes': spotNotesMigration },
  references: [{ to: 'spot', onDelete: (spot, ctx) => spotNotesOf(ctx.stores).removeSpot(spot.spotId) }],
};

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

async function addNote(h: Harness, guideId: string, spotId: string): Promise<void> {
  await (h.store.db as unknown as NotesDb)
    .insertInto('throwaway_spot_notes')
    .values({ id: `note_${spotId}`, guide_id: guideId, spot_id: spotId })
    .execute();
}

async function notedSpots(h: Harness): Promise<string[]> {
  const rows = await (h.store.db as unknown as NotesDb).selectFrom('throwaway_spot_notes').select('spot_id').execute();
  return rows.map((r) => r.spot_id).sort();
}

async function newSpot(api: Api, productId: string, spotKey: string): Promise<string> {
  const created = await api.call('create_spot', { productId, spotKey, name: spotKey, lat: 46.36, lon: 14.09 });
  assertOk(created, 201);
  return created.body.spotId as string;
}

for (const { dialect, skip } of await testDialects()) {
  describe(`references declared by their holder (${dialect})`, { skip }, () => {
    let holding: Harness;
    let failing: Harness;
    before(async () => {
      holding = await startServer({ dialect, resources: [spotNotesResource] });
      failing = await startServer({ dialect, resources: [spotNotesResource, failingHolder] });
    });
    after(async () => {
      await holding?.close();
      await failing?.close();
    });

    test('a new holder of spot references loses them when a spot is deleted, over REST and MCP', async () => {
      const apis = {
        rest: apiFor(holding, 'rest', holding.alice.writeKey),
        mcp: apiFor(holding, 'mcp', holding.alice.writeKey),
      };
      try {
        const productId = await newGuide(apis.rest, 'Noted spots');
        const [lake, gorge, hut] = [
          await newSpot(apis.rest, productId, 'lake'),
          await newSpot(apis.rest, productId, 'gorge'),
          await newSpot(apis.rest, productId, 'hut'),
        ];
        for (const spotId of [lake, gorge, hut]) await addNote(holding, productId, spotId);

        assertOk(await apis.rest.call('delete_spot', { spotId: lake }));
        assert.deepEqual(await notedSpots(holding), [gorge, hut].sort());
        assertOk(await apis.mcp.call('delete_spot', { spotId: gorge }));
        assert.deepEqual(await notedSpots(holding), [hut]);
      } finally {
        await apis.mcp.close();
      }
    });

    test('a holder step that fails fails the delete, and no holder nor the spot has changed', async () => {
      const api = apiFor(failing, 'rest', failing.alice.writeKey);
      const productId = await newGuide(api, 'A spot held everywhere');
      const spotId = await newSpot(api, productId, 'lake');
      await addNote(failing, productId, spotId);
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
        notes: await notedSpots(failing),
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
  });
}
