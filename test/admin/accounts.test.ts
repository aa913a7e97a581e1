import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hashKey } from '../../src/core/auth.ts';
import {
  cli,
  creatorsMade,
  fails,
  newCreator,
  newGuide,
  newKey,
  ok,
  useAdminServer,
  world,
} from '../helpers/admin-cli.ts';
import { rest } from '../helpers/http.ts';
import { callTool, mcpClient } from '../helpers/mcp.ts';

interface KeyListing {
  creatorId: string;
  keys: Array<Record<string, unknown>>;
}

describe('admin command line: creators, keys and the agreement', () => {
  useAdminServer();

  test('a created key works over REST and MCP with the scopes it was given', async () => {
    const creatorId = await newCreator();
    const { keyId, key } = await newKey(creatorId, '--scope', 'write', '--publish', '--role', 'editor');
    assert.match(key, /^sk_service_/);
    assert.match(keyId, /^key_/);

    const me = await rest(world.baseUrl, key, 'GET', '/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.creatorId, creatorId);
    assert.equal(me.body.displayName, `Creator ${creatorsMade()}`);
    assert.equal(me.body.role, 'editor');
    assert.equal(me.body.agreementAccepted, false, 'the operator made the account; only the creator accepts');
    assert.deepEqual(me.body.key, { keyId, scopes: ['read', 'write', 'publish'] });

    const client = await mcpClient(world.mcpUrl, key);
    try {
      const whoami = await callTool(client, 'whoami');
      assert.equal(whoami.isError, false);
      assert.equal(whoami.body.creatorId, creatorId);
      assert.equal(whoami.body.key.keyId, keyId);
    } finally {
      await client.close();
    }
  });
  test('a read key reads but cannot create a guide', async () => {
    const creatorId = await newCreator();
    const { key, keyId } = await newKey(creatorId, '--scope', 'read');
    const me = await rest(world.baseUrl, key, 'GET', '/me');
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.key, { keyId, scopes: ['read'] });
    assert.equal(me.body.role, 'owner');

    const denied = await rest(world.baseUrl, key, 'POST', '/guides', { name: 'Nope' });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, 'api_scope_required');
  });
  test('a revoked key is refused, and cannot be revoked twice', async () => {
    const creatorId = await newCreator();
    const { key, keyId } = await newKey(creatorId, '--scope', 'write');
    assert.equal((await rest(world.baseUrl, key, 'GET', '/me')).status, 200);

    assert.deepEqual(await ok('key', 'revoke', '--key', keyId), { keyId, revoked: true });
    const after = await rest(world.baseUrl, key, 'GET', '/me');
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'invalid_api_key');

    await fails(/no active key with id "key_/, 'key', 'revoke', '--key', keyId);
    await fails(/no active key with id "key_nope"/, 'key', 'revoke', '--key', 'key_nope');
  });
  test('a key past its expiry is refused; one expiring later works', async () => {
    const creatorId = await newCreator();
    const expired = await newKey(creatorId, '--scope', 'write', '--expires-at', String(Date.now() - 60_000));
    const refused = await rest(world.baseUrl, expired.key, 'GET', '/me');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'invalid_api_key');

    const later = await newKey(creatorId, '--scope', 'write', '--expires-at', String(Date.now() + 3_600_000));
    assert.equal((await rest(world.baseUrl, later.key, 'GET', '/me')).status, 200);
  });
  test('a deactivated creator gets 403 forbidden with any key', async () => {
    const creatorId = await newCreator();
    const { key } = await newKey(creatorId, '--scope', 'write');
    assert.equal((await rest(world.baseUrl, key, 'GET', '/me')).status, 200);

    assert.deepEqual(await ok('creator', 'deactivate', '--creator', creatorId), { creatorId, active: false });
    const refused = await rest(world.baseUrl, key, 'GET', '/me');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'forbidden');
  });
  test('without the agreement a price is refused; after agreement accept it is set', async () => {
    const creatorId = await newCreator();
    const { key } = await newKey(creatorId, '--scope', 'write');
    assert.equal((await rest(world.baseUrl, key, 'GET', '/me')).body.agreementAccepted, false);
    const guideId = await newGuide(key);

    const refused = await rest(world.baseUrl, key, 'PUT', `/guides/${guideId}/price`, {
      amountMinor: 2900,
      currency: 'EUR',
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'agreement_outdated');

    assert.deepEqual(await ok('agreement', 'accept', '--creator', creatorId), {
      creatorId,
      agreementAccepted: true,
      version: 1,
    });
    const priced = await rest(world.baseUrl, key, 'PUT', `/guides/${guideId}/price`, {
      amountMinor: 2900,
      currency: 'EUR',
    });
    assert.equal(priced.status, 200, JSON.stringify(priced.body));
    assert.equal(priced.body.amountMinor, 2900);
    const guide = await rest(world.baseUrl, key, 'GET', `/guides/${guideId}`);
    assert.deepEqual(guide.body.price, { amountMinor: 2900, currency: 'eur' });
  });
  test('key list shows every key of the creator and never a secret or hash', async () => {
    const creatorId = await newCreator();
    const other = await newCreator();
    const a = await newKey(creatorId, '--scope', 'write', '--publish');
    const b = await newKey(creatorId, '--scope', 'read', '--expires-at', '4102444800000');
    await newKey(other, '--scope', 'write');
    await ok('key', 'revoke', '--key', b.keyId);

    const result = await cli('key', 'list', '--creator', creatorId);
    assert.equal(result.code, 0, result.stderr);
    for (const { key } of [a, b]) {
      assert.ok(!result.stdout.includes(key), 'the secret key is never printed');
      assert.ok(!result.stdout.includes(key.slice('sk_service_'.length, -4)), 'no part of the secret beyond the hint');
      assert.ok(!result.stdout.includes(hashKey(key)), 'the hash is never printed');
    }
    const listed = JSON.parse(result.stdout) as KeyListing;
    assert.equal(listed.creatorId, creatorId);
    assert.deepEqual(
      listed.keys.map((k) => [k.keyId, k.scope, k.publish, k.expiresAt, k.revokedAt !== null]),
      [
        [a.keyId, 'write', true, null, false],
        [b.keyId, 'read', false, 4102444800000, true],
      ],
    );
    for (const k of listed.keys) {
      assert.deepEqual(Object.keys(k).sort(), [
        'createdAt',
        'creatorId',
        'expiresAt',
        'hint',
        'keyId',
        'lastUsedAt',
        'name',
        'publish',
        'revokedAt',
        'role',
        'scope',
      ]);
    }
  });
  test('creator list shows every creator, oldest first, with its working keys and no secret', async () => {
    const first = await newCreator();
    const second = await newCreator();
    const kept = await newKey(second, '--scope', 'write');
    const revoked = await newKey(second, '--scope', 'read');
    await ok('key', 'revoke', '--key', revoked.keyId);
    await newKey(second, '--scope', 'read', '--expires-at', String(Date.now() - 1000));
    await ok('creator', 'deactivate', '--creator', first);

    const result = await cli('creator', 'list');
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stdout.includes(kept.key), 'no secret is printed');
    const { creators } = JSON.parse(result.stdout) as { creators: Array<Record<string, unknown>> };
    const ids = creators.map((c) => c.creatorId);
    assert.ok(ids.indexOf(first) >= 0 && ids.indexOf(first) < ids.indexOf(second), 'oldest first');
    const made = creatorsMade();
    assert.deepEqual(
      creators.find((c) => c.creatorId === second),
      {
        creatorId: second,
        email: `creator${made}@example.com`,
        displayName: `Creator ${made}`,
        active: true,
        agreementAccepted: false,
        createdAt: creators.find((c) => c.creatorId === second)?.createdAt,
        workingKeys: 1,
      },
    );
    assert.equal(typeof creators.find((c) => c.creatorId === second)?.createdAt, 'number');
    assert.deepEqual(
      [creators.find((c) => c.creatorId === first)?.active, creators.find((c) => c.creatorId === first)?.workingKeys],
      [false, 0],
    );
    await fails(/Unknown option '--creator'/, 'creator', 'list', '--creator', first);
  });
  test('help prints usage and exits 0; no command prints usage to stderr and exits 1', async () => {
    const help = await cli('help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: npm run admin/);
    assert.match(help.stdout, /key create --creator ID --scope read\|write/);

    const none = await cli();
    assert.equal(none.code, 1);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /no command given/);
    assert.match(none.stderr, /Usage: npm run admin/);
  });
  test('bad input exits 1 with a message on stderr and changes nothing', async () => {
    const creatorId = await newCreator();
    const taken = `creator${creatorsMade()}@example.com`;

    await fails(/unknown command "frobnicate"/, 'frobnicate');
    await fails(/unknown command "key make"/, 'key', 'make');
    await fails(/"guide" needs one of: status, visibility, review, sale/, 'guide');
    await fails(/missing --email/, 'creator', 'create', '--name', 'X');
    await fails(/Unknown option '--bogus'/, 'creator', 'create', '--email', 'x@example.com', '--name', 'X', '--bogus');
    await fails(/argument missing/, 'creator', 'create', '--name', 'X', '--email');
    await fails(/not an email address/, 'creator', 'create', '--email', 'not-an-email', '--name', 'X');
    await fails(/already exists/, 'creator', 'create', '--email', taken.toUpperCase(), '--name', 'Twin');
    await fails(/--name must not be empty/, 'creator', 'create', '--email', 'blank@example.com', '--name', '  ');
    await fails(/no creator with id "cr_missing"/, 'creator', 'deactivate', '--creator', 'cr_missing');
    await fails(/no creator with id "cr_missing"/, 'agreement', 'accept', '--creator', 'cr_missing');
    await fails(/no creator with id "cr_missing"/, 'key', 'create', '--creator', 'cr_missing', '--scope', 'read');
    await fails(/no creator with id "cr_missing"/, 'key', 'list', '--creator', 'cr_missing');
    await fails(/--scope must be one of read, write/, 'key', 'create', '--creator', creatorId, '--scope', 'admin');
    await fails(/missing --scope/, 'key', 'create', '--creator', creatorId);
    const readKey = ['key', 'create', '--creator', creatorId, '--scope', 'read'];
    await fails(/--publish needs --scope write/, ...readKey, '--publish');
    await fails(/--expires-at must be a Unix time/, ...readKey, '--expires-at', 'tomorrow');
    await fails(/--role must be one of owner, editor/, ...readKey, '--role', 'boss');
    await fails(/not the secret key/, 'key', 'revoke', '--key', 'sk_service_abcdefghijklmnopqrstuvwxyz');
    await fails(/no guide with id "gd_missing"/, 'guide', 'status', '--guide', 'gd_missing', '--to', 'published');
    await fails(/--to must be one of draft, published, archived/, 'guide', 'status', '--guide', 'gd_x', '--to', 'live');
    await fails(/exactly one of --on and --off/, 'guide', 'visibility', '--guide', 'gd_x');
    await fails(/exactly one of --on and --off/, 'guide', 'visibility', '--guide', 'gd_x', '--on', '--off');
    await fails(/no guide with id "gd_missing"/, 'guide', 'visibility', '--guide', 'gd_missing', '--on');
    await fails(
      /--status must be one of pending, approved, rejected/,
      'guide',
      'review',
      '--guide',
      'gd_x',
      '--status',
      'ok',
    );
    await fails(/no guide with id "gd_missing"/, 'guide', 'review', '--guide', 'gd_missing', '--status', 'pending');
    await fails(/no guide with id "gd_missing"/, 'guide', 'sale', '--guide', 'gd_missing');
    await fails(/Unexpected argument 'extra'/, 'key', 'list', '--creator', creatorId, 'extra');

    // None of the refusals above created a key or a creator.
    const listed = await ok<KeyListing>('key', 'list', '--creator', creatorId);
    assert.deepEqual(listed.keys, []);
    const creators = await world.store.db.selectFrom('creators').select('email').execute();
    assert.ok(!creators.some((c) => ['x@example.com', 'blank@example.com', 'not-an-email'].includes(c.email)));
    assert.equal(creators.filter((c) => c.email === taken).length, 1);
  });
});
