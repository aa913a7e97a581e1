/**
 * Child process: the real Creator API (buildApp, as src/main.ts wires it) on a free loopback port,
 * over the SQLite store in DATA_DIR (or PostgreSQL at DATABASE_URL), with one creator and a
 * write+publish key made through the stores as the test harness does, and BENCH_CREATORS more
 * (the mixed load's assistants, each with a key of its own). Reports { origin, key, keys } to the
 * parent over IPC and stops on { type: 'stop' } (or when the parent goes away).
 */
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { KeyStore } from '../src/core/keys.ts';
import { CreatorsStore } from '../src/resources/profile/creators.store.ts';
import { openStore } from '../src/store.ts';
import { onStop, type ReadyMessage } from './ipc.ts';

const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' });
const store = await openStore({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  preparedStatements: config.databasePreparedStatements,
});
const app = buildApp({ config, store, clock: systemClock, logger: pino({ level: 'silent' }) });
const origin = await app.fastify.listen({ host: '127.0.0.1', port: 0 });

async function creatorWithKey(n: number): Promise<string> {
  const creator = await new CreatorsStore({ db: store.db, clock: systemClock, dialect: store.dialect }).create({
    email: n === 0 ? 'bench@example.com' : `bench${n}@example.com`,
    displayName: n === 0 ? 'Bench Creator' : `Bench Creator ${n}`,
    agreementAccepted: true,
  });
  const made = await new KeyStore(store.db, systemClock).create({
    creatorId: creator.creatorId,
    scope: 'write',
    publish: true,
  });
  return made.key;
}
const key = await creatorWithKey(0);
const keys: string[] = [];
for (let n = 1; n <= Number(process.env.BENCH_CREATORS ?? 0); n++) keys.push(await creatorWithKey(n));

onStop(async () => {
  await app.close();
  await store.close();
});
const ready: ReadyMessage = { type: 'ready', origin, key, keys, dialect: store.dialect };
// Run alone (to profile it with node --cpu-prof), it says where it listens and with which key.
if (process.send) process.send(ready);
else process.stdout.write(`${origin} ${key}\n`);
