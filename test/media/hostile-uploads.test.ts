import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runHostileUploads, SETTLE_MARGIN_MB } from '../../bench/hostile-uploads.ts';
import { UPLOAD_RSS_GOAL_MB } from '../../bench/media-upload.ts';
import { bucketEnv, testBlobStores } from '../helpers/blob-stores.ts';
import { type Started, startService } from '../helpers/service.ts';

/**
 * Ten 16-bit uploads at once against the real server in a process of its own (with `npm start`'s
 * allocator settings), its resident memory read from /proc while they run: six 24 MP RGB photos
 * (144 MB decoded, a camera's TIFF export) are accepted, four 7000 x 7000 RGBA (392 MB) refused.
 */
for (const blobStore of testBlobStores())
  describe(`hostile photo uploads against a server of its own (${blobStore})`, {
    skip: process.platform !== 'linux',
  }, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-hostile-'));
    let service: Started;
    let key: string;
    before(async () => {
      const bucket = blobStore === 's3' ? await bucketEnv() : {};
      service = await startService(dataDir, { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000', ...bucket });
      key = /Demo key (sk_service_\S+)/.exec(service.output())?.[1] as string;
      assert.ok(key, service.output());
    });
    after(async () => {
      service?.child.kill('SIGTERM');
      await service?.exited;
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('ten 16-bit TIFF and PNG uploads at once stay under 600 MB, and the memory is given back', async (t) => {
      const run = await runHostileUploads(service.base, key, service.child.pid as number);
      assert.ok(
        run.wireBytes.every((b) => b < 1e6),
        'each is under 1 MB on the wire',
      );
      for (const answer of run.answers) {
        if (answer.acceptable) {
          assert.equal(answer.status, 201, JSON.stringify(answer.body));
          assert.deepEqual([answer.body.width, answer.body.height], [6000, 4000]);
          continue;
        }
        assert.equal(answer.status, 400, JSON.stringify(answer.body));
        assert.equal(answer.body.error?.code, 'invalid_request');
        assert.equal(answer.body.error?.details?.path, 'file');
        assert.match(
          answer.body.error?.message ?? '',
          /^file: .*7000 x 7000 .*16 bits, 392 MB once decoded; at most 150 MB/,
        );
      }
      t.diagnostic(`server RSS: idle ${run.idleMb} MB, peak ${run.peakMb} MB, settled ${run.settledMb} MB`);
      assert.ok(run.peakMb < UPLOAD_RSS_GOAL_MB, `server RSS peaked at ${run.peakMb} MB (idle ${run.idleMb} MB)`);
      // glibc would otherwise keep the decode buffers: ~450 MB after such a burst.
      assert.ok(
        run.settledMb <= run.idleMb + SETTLE_MARGIN_MB,
        `RSS stayed at ${run.settledMb} MB after the burst (idle ${run.idleMb}, peak ${run.peakMb})`,
      );
    });
  });
