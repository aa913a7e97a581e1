import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { systemClock } from '../core/clock.ts';
import { KeyStore } from '../core/keys.ts';
import { openStore } from '../db/database.ts';
import { CreatorsStore } from '../resources/profile/creators.store.ts';
import { type Command, commands, type FlagValues, UsageError, usage } from './commands.ts';
import { StudioStore } from './studio.store.ts';

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

  const config = loadConfig();
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const now = () => systemClock.now();
    const result = await run({
      creators: new CreatorsStore(store.db, now),
      keys: new KeyStore(store.db, systemClock),
      studio: new StudioStore(store.db, now),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await store.close();
  }
  return 0;
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
