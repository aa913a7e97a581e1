import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from '../helpers/answers.ts';
import { apiFor, transports, useServer } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { chaptersOf, newChapter, newGuide, newSpots } from '../helpers/fixtures.ts';

const pairs = (members: any[]) => members.map((m) => [m.spotKey, m.memberCollectionId, m.order]);

for (const { dialect, skip } of await testDialects()) {
  describe(`chapter members (${dialect})`, { skip }, () => {
    const suite = useServer({ dialect });
    const { apis } = suite;

    it('a collection of 2,500 spots fits (every spot of a 2,000-spot guide and more); 2,501 members are refused', async () => {
      const productId = await newGuide(apis.rest, 'Big guide');
      const keys = Array.from({ length: 2500 }, (_, i) => `s${String(i).padStart(4, '0')}`);
      await newSpots(apis.rest, productId, keys);
      const all = await newChapter(apis.rest, productId, { name: 'Everything' });
      const reversed = [...keys].reverse();
      const a = await apis.mcp.call('set_chapter_members', {
        collectionId: all.collectionId,
        answer: 'full',
        members: reversed.map((spotKey) => ({ spotKey })),
      });
      assertOk(a);
      // The answer lists the first 500 and counts them all: the rest is asked for (allMembers).
      assert.equal(a.body.memberCount, 2500);
      assert.deepEqual(
        a.body.members.map((m: any) => m.spotKey),
        reversed.slice(0, 500),
      );
      const over = [...reversed, 's0000'].map((spotKey) => ({ spotKey }));
      for (const t of transports) {
        assertError(
          await apis[t].call('set_chapter_members', { collectionId: all.collectionId, members: over }),
          'invalid_request',
          'members',
        );
      }
      const listed = (await chaptersOf(apis.rest, productId))[0];
      assert.equal(listed.members.length, 500);
      assert.equal(listed.memberCount, 2500);
      for (const t of transports) {
        const whole = await apis[t].call('list_chapters', { productId, allMembers: true });
        assertOk(whole);
        assert.deepEqual(
          whole.body.chapters[0].members.map((m: any) => m.spotKey),
          reversed,
        );
      }
    });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        const call = (name: string, args: Record<string, unknown> = {}) => apis[t].call(name, args);

        it('set_chapter_members: spots (archived allowed) and cards, in order, full replacement', async () => {
          const productId = await newGuide(apis[t], `${t} members`);
          await newSpots(apis[t], productId, ['alpha', 'bravo', 'old']);
          const old = (await call('list_spots', { productId })).body.spots.find((s: any) => s.spotKey === 'old');
          assertOk(await call('update_spot', { spotId: old.spotId, archived: true }));
          const set = await newChapter(apis[t], productId, { name: 'Set' });
          const card = await newChapter(apis[t], productId, { name: 'Card', kind: 'chapter' });
          const a = await call('set_chapter_members', {
            collectionId: set.collectionId,
            answer: 'full',
            members: [{ spotKey: 'bravo' }, { memberCollectionId: card.collectionId }, { spotKey: 'old' }],
          });
          assertOk(a);
          assert.deepEqual(pairs(a.body.members), [
            ['bravo', null, 1],
            [null, card.collectionId, 2],
            ['old', null, 3],
          ]);
          assert.ok(a.body.updatedAt > set.updatedAt);
          // Orders sort the list; equal orders keep the order sent.
          const b = await call('set_chapter_members', {
            collectionId: set.collectionId,
            answer: 'full',
            members: [
              { spotKey: 'alpha', order: 20 },
              { spotKey: 'bravo', order: -1.5 },
              { spotKey: 'old', order: 20 },
            ],
          });
          assert.deepEqual(pairs(b.body.members), [
            ['bravo', null, 1],
            ['alpha', null, 2],
            ['old', null, 3],
          ]);
          // A chapter lists spots too.
          const c = await call('set_chapter_members', {
            collectionId: card.collectionId,
            answer: 'full',
            members: [{ spotKey: 'alpha' }],
          });
          assert.deepEqual(pairs(c.body.members), [['alpha', null, 1]]);
          assert.deepEqual(
            (await call('set_chapter_members', { collectionId: set.collectionId, members: [], answer: 'full' })).body
              .members,
            [],
          );
          const listed = await chaptersOf(apis[t], productId);
          assert.deepEqual(
            listed.map((x) => pairs(x.members)),
            [[], [['alpha', null, 1]]],
          );
        });

        it('refusals name the member and write nothing', async () => {
          const productId = await newGuide(apis[t], `${t} member refusals`);
          await newSpots(apis[t], productId, ['alpha', 'bravo']);
          const set = await newChapter(apis[t], productId, { name: 'Set' });
          const prose = await newChapter(apis[t], productId, { name: 'Prose', kind: 'chapter' });
          assertOk(
            await call('set_chapter_members', { collectionId: set.collectionId, members: [{ spotKey: 'alpha' }] }),
          );
          const members = (m: unknown[], id = set.collectionId) =>
            call('set_chapter_members', { collectionId: id, members: m });
          assertError(
            await members([{ spotKey: 'bravo' }, { spotKey: 'bravo' }]),
            'invalid_request',
            'members[1].spotKey',
          );
          assertError(await members([{ spotKey: 'nope' }]), 'invalid_request', 'members[0].spotKey');
          assertError(await members([{}]), 'invalid_request', 'members[0].spotKey');
          assertError(
            await members([{ spotKey: 'alpha', memberCollectionId: prose.collectionId }]),
            'invalid_request',
            'members[0].spotKey',
          );
          assertError(
            await members([{ memberCollectionId: set.collectionId }]),
            'invalid_request',
            'members[0].memberCollectionId',
          );
          assertError(
            await members([{ memberCollectionId: prose.collectionId }, { memberCollectionId: prose.collectionId }]),
            'invalid_request',
            'members[1].memberCollectionId',
          );
          assertError(
            await members([{ memberCollectionId: 'col_unknown' }]),
            'invalid_request',
            'members[0].memberCollectionId',
          );
          assertError(
            await members([{ spotKey: 'alpha', order: 1 }, { spotKey: 'bravo' }]),
            'invalid_request',
            'members[1].order',
          );
          assertError(await members([{ spotKey: 'alpha', extra: 1 }]), 'invalid_argument');
          const cards = await members([{ memberCollectionId: set.collectionId }], prose.collectionId);
          assertError(cards, 'invalid_request', 'members[0].memberCollectionId');
          assert.match(cards.body.error.message, /only a collection/);
          const otherGuide = await newGuide(apis[t], `${t} other`);
          await newSpots(apis[t], otherGuide, ['zulu']);
          const foreign = await newChapter(apis[t], otherGuide, { name: 'Foreign' });
          assertError(await members([{ spotKey: 'zulu' }]), 'invalid_request', 'members[0].spotKey');
          assertError(
            await members([{ memberCollectionId: foreign.collectionId }]),
            'invalid_request',
            'members[0].memberCollectionId',
          );
          const bob = apiFor(suite.h, t, suite.h.bob.writeKey);
          const bobGuide = await newGuide(bob, 'Bob guide');
          await newSpots(bob, bobGuide, ['alpha']);
          const bobs = await newChapter(bob, bobGuide, { name: 'Bob set' });
          const theirs = await members([{ memberCollectionId: bobs.collectionId }]);
          const missing = await members([{ memberCollectionId: 'col_unknown' }]);
          assert.equal(
            theirs.body.error.message,
            missing.body.error.message,
            "another creator's chapter reads as a missing one",
          );
          assertError(
            await bob.call('set_chapter_members', {
              collectionId: bobs.collectionId,
              members: [{ memberCollectionId: set.collectionId }],
            }),
            'invalid_request',
          );
          await bob.close();
          const listed = await chaptersOf(apis[t], productId);
          assert.deepEqual(pairs(listed[0].members), [['alpha', null, 1]], 'nothing written');
        });

        it('delete_spot removes the spot from every member list, other members keep their order', async () => {
          const productId = await newGuide(apis[t], `${t} spot deletes`);
          await newSpots(apis[t], productId, ['alpha', 'bravo', 'charlie']);
          const set = await newChapter(apis[t], productId, { name: 'Set' });
          const before = await call('set_chapter_members', {
            collectionId: set.collectionId,
            members: [{ spotKey: 'alpha' }, { spotKey: 'bravo' }, { spotKey: 'charlie' }],
          });
          const bravo = (await call('list_spots', { productId })).body.spots.find((s: any) => s.spotKey === 'bravo');
          assertOk(await call('delete_spot', { spotId: bravo.spotId }));
          const after = (await chaptersOf(apis[t], productId))[0];
          assert.deepEqual(
            after.members.map((m: any) => m.spotKey),
            ['alpha', 'charlie'],
          );
          assert.ok(after.updatedAt > before.body.updatedAt, 'the chapter moved on');
        });
      });
    }
  });
}
