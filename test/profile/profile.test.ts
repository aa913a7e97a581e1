import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { errorCatalogue } from '../../src/core/errors.ts';
import { API_VERSION, AUTHORING_GUIDE_VERSION } from '../../src/core/versions.ts';
import { testDialects } from '../helpers/dialects.ts';
import { type Harness, startServer } from '../helpers/harness.ts';
import { rest } from '../helpers/http.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';

type Transport = 'rest' | 'mcp';
const transports: Transport[] = ['rest', 'mcp'];

interface Answer {
  ok: boolean;
  /** The HTTP status over REST; undefined over MCP. */
  status: number | undefined;
  body: any;
}

interface Api {
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
  close(): Promise<void>;
}

/** Calls an operation by name the way a client of that transport would. */
function apiFor(h: Harness, transport: Transport, key: string): Api {
  let client: Client | undefined;
  return {
    async call(name, args = {}) {
      const op = h.app.registry.get(name);
      assert.ok(op, `operation ${name} is registered`);
      if (transport === 'mcp') {
        client ??= await mcpClient(h.mcpUrl, key);
        const r = await callTool(client, name, args);
        return { ok: !r.isError, status: undefined, body: r.body };
      }
      const rest_: Record<string, unknown> = { ...args };
      let path = op.path;
      for (const p of op.pathParams) {
        path = path.replace(`{${p}}`, encodeURIComponent(String(rest_[p])));
        delete rest_[p];
      }
      let body: unknown = rest_;
      if (op.method === 'GET' || op.method === 'DELETE') {
        const qs = new URLSearchParams(
          Object.entries(rest_).map(([k, v]): [string, string] => [k, String(v)]),
        ).toString();
        if (qs) path += `?${qs}`;
        body = undefined;
      }
      const r = await rest(h.baseUrl, key, op.method, path, body);
      return { ok: r.status < 300, status: r.status, body: r.body };
    },
    async close() {
      await client?.close();
    },
  };
}

function assertError(a: Answer, code: keyof typeof errorCatalogue): void {
  assert.equal(a.ok, false, `expected ${code}, got success ${JSON.stringify(a.body)}`);
  assert.equal(a.body?.error?.code, code, JSON.stringify(a.body));
  assert.equal(typeof a.body.error.message, 'string');
  if (a.status !== undefined) assert.equal(a.status, errorCatalogue[code].status);
}

function assertOk(a: Answer, status = 200): void {
  assert.equal(a.ok, true, JSON.stringify(a.body));
  if (a.status !== undefined) assert.equal(a.status, status);
}

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
              assert.equal(a.body.authoringGuideVersion, '2026-09-30.3');
            } finally {
              await who.close();
            }
          }
          assert.equal(keyIds.size, 3, 'each key has its own id');
          assert.equal(API_VERSION, '2026-09-30.2');
          assert.equal(AUTHORING_GUIDE_VERSION, '2026-09-30.3');
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
          assert.equal(a.body.version, '2026-09-30.3');
          assert.equal(typeof a.body.markdown, 'string');
          assert.ok(a.body.markdown.startsWith('#'), 'markdown with a heading');
          assert.ok(a.body.markdown.includes('2026-09-30.3'), 'the playbook states its own version');
          const missing = Object.keys(errorCatalogue).filter((code) => !a.body.markdown.includes(`\`${code}\``));
          assert.deepEqual(missing, [], 'error codes the playbook does not explain');
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
