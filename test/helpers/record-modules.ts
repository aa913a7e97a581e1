/**
 * Preloaded into a service under test (`--import`): records every module the process resolves,
 * by import or require, and writes the list to MODULES_SEEN_FILE when the process exits.
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
  if (process.env.MODULES_SEEN_FILE) writeFileSync(process.env.MODULES_SEEN_FILE, [...seen].join('\n'));
});
