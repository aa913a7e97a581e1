import pino from 'pino';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { systemClock } from './core/clock.ts';
import { KeyStore } from './core/keys.ts';
import { openStore, type Store } from './db/database.ts';
import { CreatorsStore } from './resources/profile/creators.store.ts';

const config = loadConfig();
const logger = pino({ level: config.logLevel });
const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const demoKey = await seedDemoCreator(store);
const app = buildApp({ config, store, clock: systemClock, logger });
const address = await app.listen(config.host, config.port);

const base = address.replace(/\/$/, '');
const lines = [
  '',
  `Creator API listening (${store.dialect}${store.dialect === 'sqlite' ? ` in ${config.dataDir}` : ''})`,
  `  REST     ${base}/api/v1   (OpenAPI: ${base}/api/v1/openapi.json)`,
  `  MCP      ${base}/mcp`,
];
if (demoKey) lines.push(`  Demo key ${demoKey}   (write + publish; shown once, keep it)`);
else lines.push('  Keys     npm run admin -- key create --creator <id> --scope write --publish');
process.stdout.write(`${lines.join('\n')}\n\n`);

/** On a fresh store: one demo creator and a write+publish key, so a newcomer can call at once. */
async function seedDemoCreator(store: Store): Promise<string | undefined> {
  const any = await store.db.selectFrom('creators').select('id').limit(1).executeTakeFirst();
  if (any) return undefined;
  const creator = await new CreatorsStore(store.db, systemClock.now).create({
    email: 'demo@example.com',
    displayName: 'Demo Creator',
    agreementAccepted: true,
  });
  const { key } = await new KeyStore(store.db, systemClock).create({
    creatorId: creator.creatorId,
    scope: 'write',
    publish: true,
  });
  return key;
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
