import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Started, startService } from '../helpers/service.ts';
import {
  assertTryAgain,
  type Caller,
  callerOf,
  demoKeyOf,
  eventually,
  healthz,
  leftOut,
  readyz,
} from './outage-calls.ts';
import { type PrivatePostgres, privatePostgres } from './private-servers.ts';

const transports = ['rest', 'mcp'] as const;
const STORE_AWAY = /database is not answering/;
/** A call that hangs fails its test here rather than holding the run. */
const OUTAGE_TEST_MS = 20_000;

/**
 * The service (`node src/main.ts`, as npm start runs it) on a PostgreSQL cluster of the test's own,
 * whose connections are ended, which is stopped and started again, and frozen.
 */
describe('a PostgreSQL outage', { skip: leftOut('postgres') }, () => {
  let cluster: PrivatePostgres;
  let service: Started;
  let calls: Caller;
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-outage-'));
  before(async () => {
    cluster = await privatePostgres();
    service = await startService(dataDir, {
      DATABASE_URL: cluster.url,
      DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      DATABASE_ACQUIRE_TIMEOUT_MS: '1000',
    });
    process.once('exit', () => service.child.kill('SIGKILL'));
    calls = callerOf(service.base.replace(/\/api\/v1$/, ''), demoKeyOf(service));
    assert.equal((await calls.createGuide('Lisbon')).status, 201);
  });
  after(async () => {
    await calls?.close();
    service?.child.kill('SIGKILL');
    await service?.exited;
    cluster?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const origin = () => service.base.replace(/\/api\/v1$/, '');
  const alive = () => assert.equal(service.child.exitCode, null, `the service is still running:\n${service.output()}`);

  it('keeps running when the database ends its idle connections, and answers with new ones', {
    timeout: OUTAGE_TEST_MS,
  }, async () => {
    for (const t of transports) assert.ok((await calls.listGuides(t)).ok);
    assert.ok((await cluster.terminateConnections()) > 0, 'the service had connections to end');
    await new Promise((r) => setTimeout(r, 300));
    alive();
    for (const t of transports) {
      const answer = await calls.listGuides(t);
      assert.ok(answer.ok, JSON.stringify(answer.body));
      assert.equal(answer.body.count, 1);
    }
  });

  it('while the database is stopped: 503 in the envelope with Retry-After, /readyz 503 with a reason, /healthz 200', {
    timeout: OUTAGE_TEST_MS,
  }, async () => {
    cluster.stop();
    try {
      alive();
      for (const t of transports) assertTryAgain(await calls.listGuides(t), STORE_AWAY);
      assertTryAgain(await calls.createGuide('Porto'), STORE_AWAY);
      const ready = await readyz(origin());
      assert.equal(ready.status, 503);
      assert.equal(ready.body.status, 'not_ready');
      assert.equal(ready.body.dependencies.store.status, 'down');
      assert.equal(ready.body.reason, 'the store is not answering (restarting, unreachable or locked)');
      assert.doesNotMatch(ready.body.reason, /127\.0\.0\.1|ECONNREFUSED/, 'no host or driver message');
      assert.equal(await healthz(origin()), 200);
    } finally {
      cluster.start();
    }
    // Recovers by itself: new connections once the database is back.
    await eventually('calls answered again', async () => (await calls.listGuides('rest')).ok);
    for (const t of transports) assert.ok((await calls.listGuides(t)).ok);
    assert.equal((await calls.createGuide('Porto')).status, 201);
    assert.equal((await readyz(origin())).status, 200);
    alive();
  });

  it('while the database is frozen: 503 within the statement deadline, not a hang; then recovers', {
    timeout: OUTAGE_TEST_MS,
  }, async () => {
    // Connections in the pool first, so that the calls below meet a frozen server, not a refused one.
    for (const t of transports) assert.ok((await calls.listGuides(t)).ok);
    cluster.freeze();
    try {
      for (const t of transports) {
        const started = Date.now();
        assertTryAgain(await calls.listGuides(t), STORE_AWAY);
        const took = Date.now() - started;
        assert.ok(took < 5000, `${t}: answered in ${took} ms, within the deadlines (1 s + 1 s)`);
      }
      const started = Date.now();
      const ready = await readyz(origin());
      assert.equal(ready.status, 503);
      assert.ok(Date.now() - started < 3000, 'a probe gets its answer in bounded time');
      assert.equal(await healthz(origin()), 200);
    } finally {
      cluster.thaw();
    }
    await eventually('calls answered again', async () => (await calls.listGuides('rest')).ok);
    for (const t of transports) assert.ok((await calls.listGuides(t)).ok);
    await eventually('ready again', async () => (await readyz(origin())).status === 200);
    alive();
  });
});
