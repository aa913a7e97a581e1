import { enableCompileCache } from 'node:module';
import { parseArgs } from 'node:util';
import type { Command, FlagValues, StudioContext } from './commands.ts';

// As in src/main.ts: the compile cache serves only what is imported after it is on.
enableCompileCache();
const { commands, UsageError, usage } = await import('./commands.ts');

/**
 * The admin command line that stands in for the creator's studio: `npm run admin -- <command>`.
 * JSON on standard output; on bad input a message on standard error and exit code 1.
 */
async function main(argv: string[]): Promise<number> {
  const [group, action] = argv;
  if (group === undefined) {
    process.stderr.write(`admin: no command given\n\n${usage()}`);
    return 1;
  }
  if (group === 'help' || group === '--help' || group === '-h') {
    process.stdout.write(usage());
    return 0;
  }

  const command = findCommand(group, action);
  const run = command.prepare(parseFlags(command, argv.slice(2)));

  const result = await withStudio(run);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}

/**
 * Opens the server's store (DATA_DIR or DATABASE_URL), runs the action and closes the store.
 * The store's modules load only here, so refusing bad input stays quick.
 */
async function withStudio(action: (ctx: StudioContext) => Promise<unknown>): Promise<unknown> {
  const [{ loadConfig }, { systemClock }, { KeyStore }, { openStore }, { CreatorsStore }, { StudioStore }, { goLive }] =
    await Promise.all([
      import('../config.ts'),
      import('../core/clock.ts'),
      import('../core/keys.ts'),
      import('../store.ts'),
      import('../resources/profile/creator.store.ts'),
      import('./studio.store.ts'),
      import('./go-live.ts'),
    ]);
  const { copyBlobs, lazyLocalBlobStore, mediaRoot, openBlobStore, pruneRetention, sweepOrphanFilesAlone } =
    await import('../resources/media/index.ts');
  const { createStores } = await import('../resources/index.ts');
  const [{ AccountsStore }, { SessionsStore }, { AgreementStore }, { createMailer }, { readFile }, { text }] =
    await Promise.all([
      import('../studio/accounts/accounts.store.ts'),
      import('../studio/accounts/sessions.store.ts'),
      import('../studio/agreement.store.ts'),
      import('../studio/accounts/mailer.ts'),
      import('node:fs/promises'),
      import('node:stream/consumers'),
    ]);
  const config = loadConfig();
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    preparedStatements: config.databasePreparedStatements,
  });
  try {
    const scope = { db: store.db, clock: systemClock, dialect: store.dialect };
    return await action({
      creators: new CreatorsStore(scope),
      keys: new KeyStore(store.db, systemClock),
      studio: new StudioStore(scope),
      goLive: (guideId) => goLive(store, systemClock, guideId),
      sweepOrphanFiles: async (before) => {
        const blobs = openBlobStore(config);
        try {
          // What the schedule runs: retention first, then the files only what it removed named.
          const stores = createStores()(scope);
          return await sweepOrphanFilesAlone(store, blobs, before, () =>
            pruneRetention(stores, config.retention, systemClock.now()),
          );
        } finally {
          blobs.close?.();
        }
      },
      copyFilesToBucket: async () => {
        if (!config.bucket)
          throw new UsageError('media copy-to-bucket needs S3_BUCKET (and the S3_* settings of that bucket)');
        const bucket = openBlobStore(config);
        try {
          return {
            from: mediaRoot(config),
            to: config.bucket.bucket,
            ...(await copyBlobs(lazyLocalBlobStore(mediaRoot(config)), bucket)),
          };
        } finally {
          bucket.close?.();
        }
      },
      accounts: new AccountsStore(scope),
      sessions: new SessionsStore(scope),
      agreement: new AgreementStore(scope),
      mailer: createMailer(config, { error: log, warn: log, info: log, debug: () => {} }),
      studioUrl: config.studioUrl,
      readStdin: () => text(process.stdin),
      readFile: (path) => readFile(path, 'utf8'),
    });
  } finally {
    await store.close();
  }
}

/** The command line's few log lines (mail that could not be sent) go to standard error, never stdout's JSON. */
function log(obj: unknown, msg?: string): void {
  process.stderr.write(`${msg ?? ''} ${JSON.stringify(obj)}\n`);
}

function findCommand(group: string, action: string | undefined): Command {
  const command = action === undefined ? undefined : commands[`${group} ${action}`];
  if (command) return command;
  const actions = Object.keys(commands)
    .filter((name) => name.startsWith(`${group} `))
    .map((name) => name.slice(group.length + 1));
  if (actions.length === 0) throw new UsageError(`unknown command ${JSON.stringify(group)}`);
  if (action === undefined || action.startsWith('-')) {
    throw new UsageError(`"${group}" needs one of: ${actions.join(', ')}`);
  }
  throw new UsageError(`unknown command "${group} ${action}"; "${group}" takes: ${actions.join(', ')}`);
}

function parseFlags(command: Command, args: string[]): FlagValues {
  try {
    return parseArgs({ args, options: command.options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nusage: npm run admin -- ${command.usage}`);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`admin: ${err.message}\nRun "npm run admin -- help" for the list of commands.\n`);
  } else {
    process.stderr.write(`admin: failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  process.exitCode = 1;
}
