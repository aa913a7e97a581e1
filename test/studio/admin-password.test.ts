import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { creatorsMade, fails, newCreator, newGuide, newKey, ok, useAdminServer, world } from '../helpers/admin-cli.ts';
import { rest } from '../helpers/http.ts';
import { csrfOf, StudioBrowser } from '../helpers/studio.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** The command line with a password on standard input. */
function withStdin(input: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      join(ROOT, 'node_modules/.bin/node'),
      [join(ROOT, 'src/admin/cli.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: world.dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

describe('admin command line: a first password for accounts the operator made', () => {
  useAdminServer();
  const origin = () => world.baseUrl.replace(/\/api\/v1$/, '');

  test('creator password prints a link that sets the first password once; the creator then signs in', async () => {
    const creatorId = await newCreator();
    const { link, expiresAt } = await ok<{ link: string; expiresAt: number }>(
      'creator',
      'password',
      '--creator',
      creatorId,
    );
    assert.ok(expiresAt > Date.now() + 6 * 24 * 3600_000, 'a week to use it');
    const url = new URL(link);
    assert.equal(url.pathname, '/studio/reset');
    const b = new StudioBrowser(origin());
    const form = await b.get(url.pathname + url.search);
    assert.equal(form.status, 200);
    const set = await b.post('/studio/reset', {
      _csrf: csrfOf(form.text),
      token: url.searchParams.get('token') as string,
      password: 'my first studio password',
    });
    assert.equal(set.status, 303, set.text);
    const fresh = new StudioBrowser(origin());
    const email = (
      await ok<{ creators: Array<{ creatorId: string; email: string }> }>('creator', 'list')
    ).creators.find((c) => c.creatorId === creatorId)?.email as string;
    assert.equal((await fresh.signIn(email, 'my first studio password')).status, 303);
  });

  test('--stdin sets the password without it ever being an argument; --send needs SMTP', async () => {
    const creatorId = await newCreator();
    const set = await withStdin('typed by the operator\n', 'creator', 'password', '--creator', creatorId, '--stdin');
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout), { creatorId, passwordSet: true });
    assert.ok(!set.stdout.includes('typed by the operator'));
    const short = await withStdin('short\n', 'creator', 'password', '--creator', creatorId, '--stdin');
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 10 characters/);
    await fails(/--send needs SMTP_URL/, 'creator', 'password', '--creator', creatorId, '--send');
    await fails(/no creator/, 'creator', 'password', '--creator', 'cr_nobody');
  });

  test('an account the operator made has accepted nothing: prices answer agreement_outdated until the creator accepts in the studio', async () => {
    const creatorId = await newCreator();
    const email = `creator${creatorsMade()}@example.com`;
    const { key } = await newKey(creatorId, '--scope', 'write');
    const guideId = await newGuide(key);
    assert.equal((await rest(world.baseUrl, key, 'GET', '/me')).body.agreementAccepted, false);
    const price = () =>
      rest(world.baseUrl, key, 'PUT', `/guides/${guideId}/price`, { amountMinor: 2900, currency: 'EUR' });
    const refused = await price();
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'agreement_outdated');

    const set = await withStdin('first studio password\n', 'creator', 'password', '--creator', creatorId, '--stdin');
    assert.equal(set.code, 0, set.stderr);
    const b = new StudioBrowser(origin());
    const signedIn = await b.signIn(email, 'first studio password');
    assert.equal(signedIn.status, 303);
    const home = await b.get(signedIn.location as string);
    assert.match(home.text, /Accept the <a href="\/studio\/agreement">creator agreement<\/a> before you set prices/);
    const agreement = await b.get('/studio/agreement');
    assert.match(agreement.text, /You have not accepted the agreement yet/);
    const accepted = await b.post('/studio/agreement', { _csrf: csrfOf(agreement.text), version: '1', accept: 'yes' });
    assert.equal(accepted.status, 303, accepted.text);
    assert.match((await b.get('/studio/agreement')).text, /You accepted version 1 on /, 'on record, with its date');
    assert.equal((await price()).status, 200);
  });

  test('agreement publish makes a new version every creator accepts before pricing again', async () => {
    const creatorId = await newCreator();
    await ok('agreement', 'accept', '--creator', creatorId);
    const { key } = await newKey(creatorId, '--scope', 'write');
    const guideId = await newGuide(key);
    const before = await rest(world.baseUrl, key, 'PUT', `/guides/${guideId}/price`, {
      amountMinor: 1900,
      currency: 'EUR',
    });
    assert.equal(before.status, 200, 'version 1 accepted: pricing is open');
    const file = join(world.dataDir, 'agreement-v2.md');
    writeFileSync(file, 'Version two of the terms.\n');
    const published = await ok<{ version: number }>(
      'agreement',
      'publish',
      '--title',
      'Creator agreement',
      '--file',
      file,
    );
    assert.equal(published.version, 2);
    const refused = await rest(world.baseUrl, key, 'PUT', `/guides/${guideId}/price`, {
      amountMinor: 2900,
      currency: 'EUR',
    });
    assert.equal(refused.body.error?.code, 'agreement_outdated');
    assert.deepEqual(await ok('agreement', 'accept', '--creator', creatorId), {
      creatorId,
      agreementAccepted: true,
      version: 2,
    });
    const priced = await rest(world.baseUrl, key, 'PUT', `/guides/${guideId}/price`, {
      amountMinor: 2900,
      currency: 'EUR',
    });
    assert.equal(priced.status, 200, JSON.stringify(priced.body));
  });
});
