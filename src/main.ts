import { enableCompileCache } from 'node:module';
import type { DemoSeed } from './admin/demo-creator.ts';
import type { Config } from './config.ts';
import { applyHeapPolicy } from './heap-policy.ts';
import type { Store } from './store.ts';

// Node keeps the compiled code of every module loaded from here on (TypeScript already stripped) in
// a cache checked against each file's content, so later starts skip that work; an edited file is
// compiled again. NODE_COMPILE_CACHE names the folder (default: the system's temporary one; `npm
// start` sets node_modules/.cache/node-compile-cache before Node starts, so this file's own types
// are not stripped again either, and Node's TypeScript stripper is not loaded), a folder that cannot
// be written leaves the cache off, NODE_DISABLE_COMPILE_CACHE=1 turns it off. Otherwise only the
// modules imported after this call profit: the service's are imported below, not above.
enableCompileCache();
// Before any request: how V8 paces full collections (see heap-policy.ts).
applyHeapPolicy();
const [
  { default: pino },
  { seedDemoCreator },
  { buildApp },
  { loadConfig },
  { systemClock },
  { loadObservability },
  { openBlobStore, probeBlobStore },
  { openStore },
] = await Promise.all([
  import('pino'),
  import('./admin/demo-creator.ts'),
  import('./app.ts'),
  import('./config.ts'),
  import('./core/clock.ts'),
  import('./observability/index.ts'),
  import('./resources/media/index.ts'),
  import('./store.ts'),
]);

/** A failure at start is one line on standard error and exit code 1: what failed and what to do. */
function fail(message: string): never {
  process.stderr.write(`creator-api: ${message}\n`);
  process.exit(1);
}

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    return fail((err as Error).message);
  }
})();
const logger = pino({ level: config.logLevel });
if (config.bucket) await checkBucket(config);
// What metrics and traces need is imported while the store opens (a PostgreSQL store waits on the network).
const [store, observability] = await Promise.all([
  openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    preparedStatements: config.databasePreparedStatements,
    deadlines: config.databaseDeadlines,
    log: logger,
  }).catch((err: Error) =>
    fail(
      `cannot open the store (${config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR ${config.dataDir}`}): ${err.message}`,
    ),
  ),
  loadObservability(config),
]);
const app = buildApp({ config, store, clock: systemClock, logger, observability });
const address = await app.listen(config.host, config.port).catch(async (err: NodeJS.ErrnoException) => {
  await store.close();
  return fail(listenFailure(config, err));
});
const demo = await seedDemoCreator(store, systemClock);
process.stdout.write(startBanner(address, store, demo));

/** A bucket the settings name but that cannot be listed stops the start: uploads would fail one by one. */
async function checkBucket(config: Config): Promise<void> {
  const blobs = openBlobStore(config);
  try {
    await probeBlobStore(blobs);
  } catch (err) {
    const at = config.bucket?.endpoint ? ` at ${config.bucket.endpoint}` : '';
    fail(
      `cannot list the bucket ${config.bucket?.bucket}${at} (S3_BUCKET): ${(err as Error).message}; check the S3_* settings`,
    );
  } finally {
    blobs.close?.();
  }
}

function listenFailure(config: Config, err: NodeJS.ErrnoException): string {
  // The metrics listener (METRICS_HOST, METRICS_PORT) says when it is the one that failed.
  const metrics = (err as { listener?: string }).listener === 'metrics' ? config.metrics : undefined;
  const [host, port, prefix] = metrics ? [metrics.host, metrics.port, 'METRICS_'] : [config.host, config.port, ''];
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (err.code === 'EADDRINUSE')
    return `cannot listen on ${where}: the port is in use; set ${prefix}PORT to another one`;
  if (err.code === 'EACCES') return `cannot listen on ${where}: permission denied; set ${prefix}PORT above 1023`;
  if (err.code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: no such address here; check ${prefix}HOST`;
  return `cannot listen on ${where}: ${err.message}`;
}

function startBanner(address: string, store: Store, demo: DemoSeed): string {
  const lines = [
    '',
    `Creator API listening (${store.dialect}${store.dialect === 'sqlite' ? ` in ${config.dataDir}` : ''})`,
    `  REST     ${address}/api/v1   (OpenAPI: ${address}/api/v1/openapi.json)`,
    `  MCP      ${address}/mcp`,
    `  Docs     ${address}/docs`,
    `  Studio   ${app.studioUrl}`,
  ];
  if (config.bucket) {
    const at = config.bucket.endpoint ? ` at ${config.bucket.endpoint}` : '';
    lines.push(
      `  Photos   bucket ${config.bucket.bucket}${at}${config.mediaUrl ? `, served from ${config.mediaUrl}` : ''}`,
    );
  }
  if (app.metricsUrl) lines.push(`  Metrics  ${app.metricsUrl}`);
  if (config.tracing) lines.push(`  Traces   ${config.tracing.endpoint}`);
  if (demo.made) {
    lines.push(`  Demo key ${demo.key}   (write + publish; shown once, keep it)`);
    lines.push(
      `  Sign in  ${app.studioUrl}/reset?token=${demo.signInToken}   (the demo creator's studio: choose its password; works once, within an hour)`,
    );
  } else if (demo.creatorId) {
    lines.push(`  Keys     npm run -s admin -- key create --creator ${demo.creatorId} --scope write --publish`);
    if (demo.passwordless) {
      lines.push(
        `  Sign in  npm run -s admin -- creator password --creator ${demo.creatorId}   (a link to the studio)`,
      );
    }
  } else {
    lines.push('  Keys     npm run -s admin -- creator list, then: key create --creator ID --scope write --publish');
  }
  return `${lines.join('\n')}\n\n`;
}

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'shutting down: finishing requests in flight');
  const force = setTimeout(() => {
    logger.error('requests still in flight after the grace period; exiting');
    process.exit(1);
  }, config.shutdownGraceMs);
  force.unref();
  await app.close();
  await store.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
