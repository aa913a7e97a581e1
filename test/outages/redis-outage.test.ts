import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Started, startService } from '../helpers/service.ts';
import { type Caller, callerOf, demoKeyOf, eventually, readyz } from './outage-calls.ts';
import { type PrivateRedis, privateRedis } from './private-servers.ts';

const transports = ['rest', 'mcp'] as const;
const OUTAGE_TEST_MS = 20_000;
const GONE = /Redis does not answer/;
const BACK = /Redis answers again/;

/** The JSON lines the service logged on standard output (the banner is not JSON). */
function logLines(service: Started): Array<{ level: number; msg: string }> {
  return service
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

function metricValue(exposition: string, name: string): number {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

/**
 * The service with rate limits in a Redis of the test's own, which is stopped and frozen: calls keep
 * being answered at once, limits counted in the instance's memory meanwhile.
 */
describe('Redis away', () => {
  let redis: PrivateRedis;
  let service: Started;
  let calls: Caller;
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-outage-'));
  before(async () => {
    redis = await privateRedis();
    service = await startService(dataDir, {
      REDIS_URL: redis.url,
      REDIS_TIMEOUT_MS: '300',
      LOG_LEVEL: 'info',
      METRICS_PORT: '0',
    });
    process.once('exit', () => service.child.kill('SIGKILL'));
    calls = callerOf(service.base.replace(/\/api\/v1$/, ''), demoKeyOf(service));
  });
  after(async () => {
    await calls?.close();
    service?.child.kill('SIGKILL');
    await service?.exited;
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const origin = () => service.base.replace(/\/api\/v1$/, '');
  const fallbacks = async () => {
    const url = /Metrics\s+(\S+)/.exec(service.stdout())?.[1] as string;
    return metricValue(await (await fetch(url)).text(), 'creator_api_rate_limit_fallbacks_total');
  };

  /** Every keyed call answered, and fast: no call waits for Redis more than its timeout. */
  async function answeredPromptly(): Promise<void> {
    for (const t of transports) {
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const answer = await calls.listGuides(t);
        assert.ok(answer.ok, `${t}: ${JSON.stringify(answer.body)}`);
        assert.ok(Date.now() - started < 1500, `${t}: answered in ${Date.now() - started} ms`);
        if (t === 'rest') assert.match(answer.headers?.get('ratelimit') ?? '', /r=\d+/, 'limits still counted');
      }
    }
  }

  it('stopped: keyed calls still answered at once, /readyz ready but degraded, logged once as JSON, counted', {
    timeout: OUTAGE_TEST_MS,
  }, async () => {
    for (const t of transports) assert.ok((await calls.listGuides(t)).ok);
    const up = await readyz(origin());
    assert.equal(up.status, 200);
    assert.deepEqual(up.body.dependencies.redis, { status: 'up' });
    assert.equal(await fallbacks(), 0);

    await redis.stop();
    await answeredPromptly();
    const ready = await readyz(origin());
    assert.equal(ready.status, 200, 'rate limits have a fallback: still ready');
    assert.equal(ready.body.status, 'ready');
    assert.equal(ready.body.dependencies.redis.status, 'degraded');
    assert.match(ready.body.dependencies.redis.reason, /own memory/);
    assert.ok((await fallbacks()) >= 6, 'every call counted from memory is in the metrics');
    assert.equal(logLines(service).filter((l) => GONE.test(l.msg)).length, 1, 'logged once');
    assert.doesNotMatch(service.stderr(), /ioredis|Error/, 'nothing of ioredis on standard error');

    await redis.start();
    await eventually('Redis used again', async () => (await readyz(origin())).body.dependencies.redis.status === 'up');
    const before = await fallbacks();
    await answeredPromptly();
    assert.equal(await fallbacks(), before, 'limits counted in Redis again');
    assert.equal(logLines(service).filter((l) => BACK.test(l.msg)).length, 1);
  });

  it('frozen: calls wait no longer than REDIS_TIMEOUT_MS, then are counted in memory; recovers when it thaws', {
    timeout: OUTAGE_TEST_MS,
  }, async () => {
    redis.freeze();
    try {
      await answeredPromptly();
      assert.equal((await readyz(origin())).body.dependencies.redis.status, 'degraded');
    } finally {
      redis.thaw();
    }
    await eventually('Redis used again', async () => (await readyz(origin())).body.dependencies.redis.status === 'up');
    assert.equal(logLines(service).filter((l) => GONE.test(l.msg)).length, 2, 'one line per outage');
    assert.doesNotMatch(service.stderr(), /ioredis|Error/);
  });
});
