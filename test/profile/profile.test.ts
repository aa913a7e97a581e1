import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorCatalogue } from '../../src/core/errors.ts';
import { API_VERSION, AUTHORING_GUIDE_VERSION } from '../../src/core/versions.ts';
import { assertError, assertOk } from '../helpers/answers.ts';
import { type Api, apiFor, transports } from '../helpers/api.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';

const profileFields = ['avatarUrl', 'bio', 'creatorId', 'displayName', 'email', 'realName', 'role', 'slug', 'socials'];

const insta = {
  platform: 'instagram',
  handle: '@alpinetrails',
  url: 'https://www.instagram.com/alpinetrails',
  followerCount: 12000,
};
const tiktok = { platform: 'tiktok', handle: '@alpinetrails', url: 'https://tiktok.com/@alpinetrails' };
const youtube = { platform: 'youtube', handle: 'AlpineTrails', url: 'https://youtube.com/@AlpineTrails' };

for (const { dialect, skip } of await testDialects()) {
  describe(`profile, whoami and the authoring guide (${dialect})`, { skip }, () => {
    let h: Harness;
    before(async () => {
      h = await startServer({ dialect });
    });
    after(async () => {
      await h?.close();
    });

    for (const t of transports) {
      describe(`over ${t}`, () => {
        let api: Api;
        let creatorId: string;
        before(async () => {
          const dora = await h.newCreator(`Dora ${t}`);
          creatorId = dora.creatorId;
          api = apiFor(h, t, dora.writeKey);
        });
        after(async () => {
          await api?.close();
        });

        it('get_profile answers the Profile fields and the key owner role', async () => {
          const a = await api.call('get_profile');
          assertOk(a);
          assert.deepEqual(Object.keys(a.body).sort(), profileFields);
          assert.equal(a.body.creatorId, creatorId);
          assert.equal(a.body.displayName, `Dora ${t}`);
          assert.equal(a.body.slug, `dora-${t}`);
          assert.match(a.body.email, /@example\.com$/);
          assert.equal(a.body.realName, null);
          assert.equal(a.body.bio, null);
          assert.equal(a.body.avatarUrl, null);
          assert.deepEqual(a.body.socials, []);
          assert.equal(a.body.role, 'owner');
        });

        it('update_profile changes only the fields sent', async () => {
          const named = await api.call('update_profile', { displayName: 'Dora Trails' });
          assertOk(named);
          assert.equal(named.body.displayName, 'Dora Trails');
          assert.equal(named.body.realName, null);
          const real = await api.call('update_profile', { realName: 'Dora Explorer' });
          assert.equal(real.body.realName, 'Dora Explorer');
          assert.equal(real.body.displayName, 'Dora Trails');
          const read = await api.call('get_profile');
          assert.equal(read.body.displayName, 'Dora Trails');
          assert.equal(read.body.realName, 'Dora Explorer');
          assert.equal(read.body.slug, `dora-${t}`, 'the slug does not follow the display name');
          assert.equal((await api.call('whoami')).body.displayName, 'Dora Trails');
          const cleared = await api.call('update_profile', { realName: '' });
          assert.equal(cleared.body.realName, null);
          assert.equal(cleared.body.displayName, 'Dora Trails');
        });

        it('update_profile enforces the display name limit of 80', async () => {
          assert.equal(
            (await api.call('update_profile', { displayName: 'd'.repeat(80) })).body.displayName,
            'd'.repeat(80),
          );
          assertError(await api.call('update_profile', { displayName: 'd'.repeat(81) }), 'invalid_request');
          assert.equal((await api.call('get_profile')).body.displayName, 'd'.repeat(80));
          assertError(await api.call('update_profile', { displayName: 7 }), 'invalid_argument');
        });

        it('update_profile refuses the read-only email and slug as unknown fields', async () => {
          const before_ = (await api.call('get_profile')).body;
          for (const field of ['email', 'slug']) {
            const a = await api.call('update_profile', { [field]: 'changed@example.com' });
            assertError(a, 'invalid_argument');
            assert.match(a.body.error.message, new RegExp(`^${field}: .*unknown field`));
          }
          assert.deepEqual((await api.call('get_profile')).body, before_);
        });

        it('set_profile_socials replaces the list whole', async () => {
          const three = await api.call('set_profile_socials', { socials: [insta, tiktok, youtube] });
          assertOk(three);
          assert.deepEqual(three.body.socials, [insta, tiktok, youtube]);
          assert.equal(three.body.creatorId, creatorId);
          const one = await api.call('set_profile_socials', { socials: [youtube] });
          assert.deepEqual(one.body.socials, [youtube]);
          assert.deepEqual((await api.call('get_profile')).body.socials, [youtube]);
          const none = await api.call('set_profile_socials', { socials: [] });
          assert.deepEqual(none.body.socials, []);
          assertError(await api.call('set_profile_socials', {}), 'invalid_argument');
        });

        it('set_profile_socials refuses bad lists and leaves the stored one', async () => {
          assertOk(await api.call('set_profile_socials', { socials: [insta] }));
          const seven = Array.from({ length: 7 }, (_, i) => ({ ...tiktok, handle: `@h${i}` }));
          assertError(await api.call('set_profile_socials', { socials: seven }), 'invalid_request');
          assertOk(await api.call('set_profile_socials', { socials: seven.slice(0, 6) }));
          assertOk(await api.call('set_profile_socials', { socials: [insta] }));
          const host = await api.call('set_profile_socials', {
            socials: [{ platform: 'instagram', handle: '@x', url: 'https://tiktok.com/@x' }],
          });
          assertError(host, 'invalid_request');
          assert.ok(host.body.error.message.includes('socials[0].url'), host.body.error.message);
          const lookalike = await api.call('set_profile_socials', {
            socials: [insta, { platform: 'youtube', handle: 'x', url: 'https://notyoutube.com/x' }],
          });
          assertError(lookalike, 'invalid_request');
          assert.ok(lookalike.body.error.message.includes('socials[1].url'), lookalike.body.error.message);
          assertError(
            await api.call('set_profile_socials', {
              socials: [{ platform: 'myspace', handle: '@x', url: 'https://myspace.com/x' }],
            }),
            'invalid_argument',
          );
          assertError(
            await api.call('set_profile_socials', { socials: [{ ...insta, followerCount: -1 }] }),
            'invalid_request',
          );
          assertError(
            await api.call('set_profile_socials', { socials: [{ ...insta, followerCount: 'many' }] }),
            'invalid_argument',
          );
          assertError(
            await api.call('set_profile_socials', { socials: [{ ...insta, extra: true }] }),
            'invalid_argument',
          );
          assert.deepEqual((await api.call('get_profile')).body.socials, [insta]);
        });

        it('profile writes need the write scope', async () => {
          const me = (await api.call('get_profile')).body;
          const readOnly = apiFor(h, t, h.alice.readKey);
          try {
            assertOk(await readOnly.call('get_profile'));
            assertError(await readOnly.call('update_profile', { displayName: 'Nope' }), 'api_scope_required');
            assertError(await readOnly.call('set_profile_socials', { socials: [] }), 'api_scope_required');
          } finally {
            await readOnly.close();
          }
          assert.deepEqual((await api.call('get_profile')).body, me);
        });

        it('whoami names the creator, the scopes of each kind of key and the versions', async () => {
          const expected: Array<[keyof typeof h.alice, string[]]> = [
            ['publishKey', ['read', 'write', 'publish']],
            ['writeKey', ['read', 'write']],
            ['readKey', ['read']],
          ];
          const keyIds = new Set<string>();
          for (const [kind, scopes] of expected) {
            const who = apiFor(h, t, h.alice[kind]);
            try {
              const a = await who.call('whoami');
              assertOk(a);
              assert.equal(a.body.creatorId, h.alice.creatorId);
              assert.equal(a.body.displayName, 'Alice');
              assert.equal(a.body.role, 'owner');
              assert.equal(a.body.agreementAccepted, true);
              assert.deepEqual([...a.body.key.scopes].sort(), [...scopes].sort(), kind);
              keyIds.add(a.body.key.keyId);
              assert.equal(a.body.apiVersion, '2026-09-30.2');
              assert.equal(a.body.authoringGuideVersion, '2026-09-30.4');
              assert.deepEqual(a.body.addresses, {
                api: h.baseUrl,
                mcp: h.mcpUrl,
                upload: `${h.baseUrl}/media/upload`,
                uploadBatch: `${h.baseUrl}/media/upload-batch`,
              });
            } finally {
              await who.close();
            }
          }
          assert.equal(keyIds.size, 3, 'each key has its own id');
          assert.equal(API_VERSION, '2026-09-30.2');
          assert.equal(AUTHORING_GUIDE_VERSION, '2026-09-30.4');
          const carol = await h.newCreator(`Carol ${t}`, { agreementAccepted: false });
          const c = apiFor(h, t, carol.readKey);
          try {
            const a = await c.call('whoami');
            assert.equal(a.body.creatorId, carol.creatorId);
            assert.equal(a.body.agreementAccepted, false);
          } finally {
            await c.close();
          }
        });

        it('get_authoring_guide answers the playbook, naming every error code in backticks', async () => {
          const a = await api.call('get_authoring_guide');
          assertOk(a);
          // Over MCP the playbook is its markdown alone, which states the versions itself.
          if (t === 'rest') assert.equal(a.body.version, '2026-09-30.4');
          assert.equal(typeof a.body.markdown, 'string');
          assert.ok(a.body.markdown.startsWith('#'), 'markdown with a heading');
          assert.ok(a.body.markdown.includes('2026-09-30.4'), 'the playbook states its own version');
          for (const topic of ['errors', 'all']) {
            const answer = await api.call('get_authoring_guide', { topic });
            assertOk(answer);
            const missing = Object.keys(errorCatalogue).filter((code) => !answer.body.markdown.includes(`\`${code}\``));
            assert.deepEqual(missing, [], `error codes the playbook (${topic}) does not explain`);
          }
          const ro = apiFor(h, t, h.alice.readKey);
          try {
            assert.deepEqual((await ro.call('get_authoring_guide')).body, a.body);
          } finally {
            await ro.close();
          }
        });
      });
    }
  });
}
