/**
 * Preloaded into a service under test (`--import`): records every module the process resolves,
 * by import or require, and Node's own internal modules it loaded (`process.moduleLoadList`, e.g.
 * "NativeModule internal/deps/undici/undici"), and writes the list to MODULES_SEEN_FILE when the
 * process exits.
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    seen.add(resolved.url);
    return resolved;
  },
});
process.on('exit', () => {
  // Undocumented, so not in Node's types; present since Node 0.x.
  const { moduleLoadList = [] } = process as unknown as { moduleLoadList?: string[] };
  const internal = moduleLoadList.filter((name) => name.startsWith('NativeModule internal/'));
  if (process.env.MODULES_SEEN_FILE) writeFileSync(process.env.MODULES_SEEN_FILE, [...seen, ...internal].join('\n'));
});
