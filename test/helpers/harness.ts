import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { type App, type AppDeps, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { KeyStore } from '../../src/core/keys.ts';
import { loadObservability } from '../../src/observability/index.ts';
import { LinkChecker } from '../../src/resources/links/link-checker.ts';
import type { Resolver } from '../../src/resources/links/safe-fetch.ts';
import { type BlobStore, openBlobStore } from '../../src/resources/media/index.ts';
import { CreatorsStore } from '../../src/resources/profile/creator.store.ts';
import { openStore, type Store } from '../../src/store.ts';
import { bucketEnv, type TestBlobStore } from './blob-stores.ts';
import { freshPostgresSchema, type TestDialect } from './dialects.ts';

export interface TestCreator {
  creatorId: string;
  /** write scope with the publish option */
  publishKey: string;
  /** write scope, no publish option */
  writeKey: string;
  readKey: string;
}

export interface Harness {
  dialect: TestDialect;
  blobStore: TestBlobStore;
  /** The server's photo files, read as the server reads them (its folder or its bucket). */
  blobs: BlobStore;
  /** The settings that name where its photo files live (S3_* for a bucket; none for DATA_DIR/media). */
  blobEnv: Record<string, string>;
  baseUrl: string;
  mcpUrl: string;
  origin: string;
  clock: ManualClock;
  store: Store;
  config: Config;
  app: App;
  alice: TestCreator;
  bob: TestCreator;
  keys: KeyStore;
  creators: CreatorsStore;
  newCreator(name: string, opts?: { agreementAccepted?: boolean }): Promise<TestCreator>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  dialect?: TestDialect;
  /** Where photo files live: `disk` (the default) or a fresh bucket of the local S3-compatible server. */
  blobStore?: TestBlobStore;
  env?: Record<string, string>;
  now?: string;
  /** Told which path answered each MCP request (test/mcp-direct.test.ts). */
  observeMcp?: AppDeps['observeMcp'];
  /** Told of each REST read run before Fastify routes it (test/rest-early.test.ts). */
  observeEarly?: AppDeps['observeEarly'];
  /** Services in place of those built from the settings (a link checker allowed to reach local servers). */
  services?: AppDeps['services'];
  /** The logger the server writes to (silent unless given): the log tests read what it writes. */
  logger?: Logger;
  /** How OAuth client metadata documents are fetched (a test's own TLS server on loopback). */
  clientMetadataGuard?: AppDeps['clientMetadataGuard'];
  /** Resources served beside the API's own, their tables migrated (test/resource-seam.test.ts). */
  resources?: AppDeps['resources'];
}

/** A resolver that knows no name, as on a machine without DNS: nothing leaves the test machine. */
export const offlineResolver: Resolver = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** The real server on a free port, on a fresh SQLite file or PostgreSQL schema, two creators ready. */
export async function startServer(options: HarnessOptions = {}): Promise<Harness> {
  const dialect = options.dialect ?? 'sqlite';
  const dataDir = mkdtempSync(join(tmpdir(), 'creator-api-test-'));
  const pgSchema = dialect === 'postgres' ? await freshPostgresSchema() : undefined;
  const blobStore = options.blobStore ?? 'disk';
  const blobEnv = blobStore === 's3' ? await bucketEnv() : {};
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // Suites about other things make many calls; the rate-limit suite sets its own small limits.
    RATE_LIMIT_KEY_PER_MINUTE: '1000000',
    RATE_LIMIT_CREATOR_PER_HOUR: '10000000',
    RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1000000',
    RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '1000000',
    RATE_LIMIT_MAILS_PER_ACCOUNT_PER_HOUR: '1000000',
    RATE_LIMIT_REGISTRATIONS_PER_HOUR: '1000000',
    ...(pgSchema ? { DATABASE_URL: pgSchema.url } : {}),
    ...blobEnv,
    ...options.env,
  });
  const clock = new ManualClock(options.now ?? '2026-11-23T10:00:00Z');
  const store = await openStore(
    {
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      preparedStatements: config.databasePreparedStatements,
      deadlines: config.databaseDeadlines,
    },
    options.resources,
  );
  const app = buildApp({
    config,
    store,
    clock,
    logger: options.logger ?? pino({ level: 'silent' }),
    observability: await loadObservability(config),
    ...(options.observeMcp && { observeMcp: options.observeMcp }),
    ...(options.observeEarly && { observeEarly: options.observeEarly }),
    ...(options.clientMetadataGuard && { clientMetadataGuard: options.clientMetadataGuard }),
    ...(options.resources && { resources: options.resources }),
    // Tests never ask real DNS: names resolve nowhere unless a suite hands in its own checker.
    services: { linkChecker: new LinkChecker({ clock, lookup: offlineResolver }), ...options.services },
  });
  const address = await app.listen('127.0.0.1', 0);
  const keys = new KeyStore(store.db, clock);
  const blobs = openBlobStore(config);
  const creators = new CreatorsStore({ db: store.db, clock, dialect: store.dialect });

  let counter = 0;
  const newCreator = async (name: string, opts: { agreementAccepted?: boolean } = {}): Promise<TestCreator> => {
    counter += 1;
    const creator = await creators.create({
      email: `${name.toLowerCase().replace(/\W/g, '')}${counter}@example.com`,
      displayName: name,
      agreementAccepted: opts.agreementAccepted ?? true,
    });
    const make = (scope: 'read' | 'write', publish: boolean) =>
      keys.create({ creatorId: creator.creatorId, scope, publish }).then((k) => k.key);
    return {
      creatorId: creator.creatorId,
      publishKey: await make('write', true),
      writeKey: await make('write', false),
      readKey: await make('read', false),
    };
  };

  return {
    dialect,
    blobStore,
    blobs,
    blobEnv,
    baseUrl: `${address}/api/v1`,
    mcpUrl: `${address}/mcp`,
    origin: address,
    clock,
    store,
    config,
    app,
    alice: await newCreator('Alice'),
    bob: await newCreator('Bob'),
    keys,
    creators,
    newCreator,
    async close() {
      await app.close();
      blobs.close?.();
      await store.close();
      await pgSchema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
