import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { keysOf, type StoredFiles } from '../../src/resources/media/media-files.ts';
import { openStore } from '../../src/store.ts';
import { adminJson } from '../helpers/admin-cli.ts';
import { noRateLimits } from '../helpers/api.ts';
import { freshPostgresSchema, testDialects } from '../helpers/dialects.ts';
import { flat } from '../helpers/images.ts';
import { type Started, startService } from '../helpers/service.ts';

/** Older than the sweep's hour: what the files of a crash are once the hour has passed. */
const TWO_HOURS_AGO = () => new Date(Date.now() - 2 * 3600_000);

/** Every file under the photo folder, temporary ones included, as paths relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1));
}

/** The blob keys the rows name (every rendition of every photo), read from the store while no service runs. */
async function namedKeys(dataDir: string, databaseUrl: string): Promise<Set<string>> {
  const url = databaseUrl || undefined;
  const store = await openStore({ dataDir, databaseUrl: url });
  try {
    const rows = await store.db.selectFrom('media').select('files').execute();
    return new Set(rows.flatMap((row) => keysOf(JSON.parse(row.files) as StoredFiles)));
  } finally {
    await store.close();
  }
}

/** What no row names: temporary files, and files (or sidecars) of keys no row names. */
const leftoversOf = (files: readonly string[], named: ReadonlySet<string>) =>
  files.filter((f) => f.startsWith('.tmp/') || !named.has(f.split('/')[1]?.replace(/\.json$/, '') ?? ''));

async function call(service: Started, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${service.base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const upload = (service: Started, key: string, productId: string, bytes: Buffer) =>
  fetch(`${service.base}/api/v1/media/upload?productId=${productId}&credit=Crash+Test`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' },
    body: bytes,
  });

for (const { dialect, skip } of await testDialects()) {
  describe(`what a crash leaves among the photo files goes at the next start and sweep (${dialect})`, { skip }, () => {
    let dataDir: string;
    let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;
    let env: Record<string, string>;
    let service: Started | undefined;
    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'crash-leftovers-'));
      schema = dialect === 'postgres' ? await freshPostgresSchema() : undefined;
      env = {
        ...noRateLimits,
        RATE_LIMIT_UPLOADS_PER_MINUTE: '10000',
        MEDIA_SWEEP_START_MS: '1000',
        DATABASE_URL: schema?.url ?? '',
      };
    });
    after(async () => {
      if (service && service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGKILL');
        await service.exited;
      }
      await rm(dataDir, { recursive: true, force: true });
      await schema?.drop();
    });

    it('kill -9 mid-upload leaves temporary and orphan files; a start, then a sweep, remove them and keep every named file', async () => {
      const media = join(dataDir, 'media');
      const photo = await flat(3000, 2000, '#507090').jpeg({ quality: 90 }).toBuffer();
      service = await startService(dataDir, env);
      const key = /Demo key (sk_service_\S+)/.exec(service.stdout())?.[1] as string;
      assert.ok(key, service.stdout());
      const guide = await call(service, key, 'POST', '/guides', { name: 'Crash test' });
      assert.equal(guide.status, 201, JSON.stringify(guide.body));
      const productId = guide.body.productId as string;
      const kept = await upload(service, key, productId, photo);
      assert.equal(kept.status, 201);
      const keptPath = new URL(((await kept.json()) as { urls: Record<string, string> }).urls.large as string).pathname;

      /** Kills the running service with SIGKILL while uploads are writing their files. */
      async function crash(): Promise<void> {
        const before = (await filesUnder(media)).length;
        const uploads = Array.from({ length: 6 }, () =>
          upload(service as Started, key, productId, photo).catch(() => undefined),
        );
        const deadline = Date.now() + 20_000;
        while ((await filesUnder(media)).length < before + 3 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 2));
        }
        const running = service as Started;
        running.child.kill('SIGKILL');
        await running.exited;
        await Promise.all(uploads);
      }

      /** Crashes until a crash left something behind; answers what no row names. */
      async function crashLeavingFiles(): Promise<string[]> {
        for (let attempt = 0; attempt < 6; attempt++) {
          await crash();
          const left = leftoversOf(await filesUnder(media), await namedKeys(dataDir, env.DATABASE_URL as string));
          if (left.length > 0) return left;
          service = await startService(dataDir, env);
        }
        assert.fail('six crashes mid-upload left nothing behind');
      }

      /** Ages every file past the sweep's hour (as if the crash was long ago), then plants one more of each kind. */
      async function ageAndPlant(tag: string) {
        for (const file of await filesUnder(media)) await utimes(join(media, file), TWO_HOURS_AGO(), TWO_HOURS_AGO());
        const placed = (k: string) => [`${k.slice(-2)}/${k}`, `${k.slice(-2)}/${k}.json`];
        const old = [`.tmp/planted-${tag}`, ...placed(`blob_planted_${tag}_old`)];
        const young = [`.tmp/young-${tag}`, ...placed(`blob_planted_${tag}_new`)];
        for (const file of [...old, ...young]) await mkdir(join(media, file, '..'), { recursive: true });
        for (const file of [...old, ...young]) await writeFile(join(media, file), 'x');
        for (const file of old) await utimes(join(media, file), TWO_HOURS_AGO(), TWO_HOURS_AGO());
        return { old, young };
      }

      /** Every file a row names is there, with its sidecar, and served. */
      async function assertNamedIntact(named: ReadonlySet<string>) {
        assert.ok(named.size >= 4, 'the kept photo has its files');
        for (const k of named) {
          const place = join(media, k.slice(-2), k);
          assert.ok((await stat(place)).isFile(), `${k} is there`);
          assert.ok((await stat(`${place}.json`)).isFile(), `${k}'s sidecar is there`);
        }
      }

      // A start: what the crash left (aged past the hour) is gone soon after, a young file stays.
      const crashed = await crashLeavingFiles();
      const first = await ageAndPlant('a');
      const named = await namedKeys(dataDir, env.DATABASE_URL as string);
      service = await startService(dataDir, env);
      const gone = [...crashed, ...first.old];
      const deadline = Date.now() + 15_000;
      while (gone.some((f) => existsSync(join(media, f))) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(
        gone.filter((f) => existsSync(join(media, f))),
        [],
        `the start removed every old leftover: ${crashed.length} from the crash`,
      );
      for (const f of first.young) assert.ok(existsSync(join(media, f)), `${f} may be a write under way: kept`);
      await assertNamedIntact(named);
      assert.equal((await fetch(new URL(keptPath, service.base))).status, 200, 'the kept photo is served');

      // A sweep (the operator's, the same the schedule runs) after another crash.
      const again = await crashLeavingFiles();
      const second = await ageAndPlant('b');
      const stillNamed = await namedKeys(dataDir, env.DATABASE_URL as string);
      const swept = await adminJson<{ removed: string[]; leftovers: number }>(
        { DATA_DIR: dataDir, DATABASE_URL: env.DATABASE_URL },
        'media',
        'sweep',
      );
      const stdout = JSON.stringify(swept);
      assert.ok(swept.leftovers >= 1, stdout);
      assert.deepEqual(
        [...again, ...second.old].filter((f) => existsSync(join(media, f))),
        [],
        `the sweep removed every old leftover: ${stdout}`,
      );
      for (const f of second.young) assert.ok(existsSync(join(media, f)), `${f} is kept`);
      await assertNamedIntact(stillNamed);
    });
  });
}
