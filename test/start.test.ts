import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ServiceDidNotStart, spawnService, startService } from './helpers/service.ts';
import { csrfOf, StudioBrowser } from './helpers/studio.ts';

const root = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);

/** The admin command line, as the banner tells a newcomer to run it, on the same DATA_DIR. */
async function admin(dataDir: string, args: string[]): Promise<unknown> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
  const { stdout } = await run(process.execPath, ['src/admin/cli.ts', ...args], { cwd: root, env });
  return JSON.parse(stdout);
}

const STACK_FRAME = /^\s+at /m;

describe('npm start for a newcomer', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'creator-api-newcomer-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('a port in use is one line and exit 1; the demo key, the studio and its sign-in link wait for the start that listens', async () => {
    const dataDir = freshDir();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const failed = spawnService(dataDir, { PORT: String(port) });
      assert.equal(await failed.exited, 1);
      assert.equal(failed.stdout(), '', 'nothing on standard output: no key shown to nobody');
      assert.equal(
        failed.stderr(),
        `creator-api: cannot listen on 127.0.0.1:${port}: the port is in use; set PORT to another one\n`,
      );
    } finally {
      blocker.close();
    }

    const first = await startService(dataDir);
    let demoCreator: string;
    let link: string;
    try {
      const key = /Demo key (sk_service_\S+)/.exec(first.stdout())?.[1];
      assert.ok(key, `the first start that listens shows the demo key:\n${first.output()}`);
      const me = await fetch(`${first.base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(me.status, 200);
      demoCreator = ((await me.json()) as { creatorId: string }).creatorId;
      // The studio's address, and a link into it as the demo creator, shown once beside the key.
      assert.match(first.stdout(), new RegExp(`^ {2}Studio {3}${first.base}/studio$`, 'm'));
      const shown = /Sign in {2}(\S+\/studio\/reset\?token=\S+)/.exec(first.stdout())?.[1];
      assert.ok(shown, `the first start shows a sign-in link:\n${first.stdout()}`);
      assert.equal(new URL(shown).origin, first.base);
      link = shown;
    } finally {
      first.child.kill('SIGTERM');
    }
    assert.equal(await first.exited, 0);

    const second = await startService(dataDir);
    try {
      assert.doesNotMatch(second.stdout(), /Demo key|sk_service_|token=/);
      assert.match(second.stdout(), /^ {2}Studio {3}http:\S+\/studio$/m, 'every start names the studio');
      assert.match(
        second.stdout(),
        new RegExp(`Sign in {2}npm run -s admin -- creator password --creator ${demoCreator}`),
        'while the demo creator has no password, the command that makes a new link',
      );

      // The link (within its hour) sets the demo creator's password and signs the browser in, once.
      const url = new URL(link);
      const path = url.pathname + url.search;
      const browser = new StudioBrowser(second.base);
      const form = await browser.get(path);
      assert.equal(form.status, 200, form.text.slice(0, 300));
      const token = url.searchParams.get('token') as string;
      const password = 'the demo password';
      const signedIn = await browser.post('/studio/reset', { _csrf: csrfOf(form.text), token, password });
      assert.equal(signedIn.status, 303, signedIn.text.slice(0, 300));
      const account = await browser.get('/studio/account');
      assert.equal(account.status, 200, 'the link signed the browser in');
      assert.match(account.text, /demo@example\.com/);
      const replay = await browser.post('/studio/reset', {
        _csrf: csrfOf(form.text),
        token,
        password: 'replayed link!',
      });
      assert.equal(replay.status, 410, 'a replayed link sets nothing and signs nobody in');
      assert.equal((await new StudioBrowser(second.base).get(path)).status, 410, 'the link works once');
      assert.equal((await new StudioBrowser(second.base).signIn('demo@example.com', password)).status, 303);

      const hint = /npm run -s admin -- (key create --creator (\S+) --scope write --publish)/.exec(second.stdout());
      assert.ok(hint, `a later start prints the command that makes a key:\n${second.stdout()}`);
      assert.equal(hint[2], demoCreator, 'with the real demo creator id');
      const made = (await admin(dataDir, (hint[1] as string).split(' '))) as { key: string };
      const again = await fetch(`${second.base}/api/v1/me`, { headers: { authorization: `Bearer ${made.key}` } });
      assert.equal(again.status, 200, 'the printed command makes a key that works');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  test('a store with creators but no demo creator points at creator list; no demo creator is made', async () => {
    const dataDir = freshDir();
    const { creatorId } = (await admin(dataDir, [
      'creator',
      'create',
      '--email',
      'ana@example.com',
      '--name',
      'Ana',
    ])) as {
      creatorId: string;
    };
    const service = await startService(dataDir);
    try {
      assert.match(service.stdout(), /npm run -s admin -- creator list/);
      assert.doesNotMatch(service.stdout(), /Demo key/);
      const { creators } = (await admin(dataDir, ['creator', 'list'])) as { creators: Array<{ creatorId: string }> };
      assert.deepEqual(
        creators.map((c) => c.creatorId),
        [creatorId],
      );
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  });

  test('a start that does not finish in time is killed, not left running', async () => {
    const late = await startService(freshDir(), {}, { timeoutMs: 1 }).then(
      (started) => {
        started.child.kill('SIGKILL');
        return started;
      },
      (error: unknown) => error,
    );
    assert.ok(late instanceof ServiceDidNotStart, `the start should have timed out: ${String(late)}`);
    assert.equal(typeof late.pid, 'number');
    assert.throws(() => process.kill(late.pid as number, 0), { code: 'ESRCH' }, 'no process is left with its pid');
  });

  test('a bad setting is a short message and exit 1, not a stack trace', async () => {
    const failed = spawnService(freshDir(), { PORT: 'eighty' });
    assert.equal(await failed.exited, 1);
    assert.equal(failed.stdout(), '');
    assert.match(failed.stderr(), /^creator-api: Invalid configuration:\n {2}PORT: /);
    assert.doesNotMatch(failed.stderr(), STACK_FRAME);
  });
});
