/**
 * Child process: imports one module (argv[2], a path or a package name) and prints
 * { cpuMs, modules } as JSON: the CPU time of the import alone (process.cpuUsage around it, so
 * Node's own start and this file do not count), and how many modules it loaded. `--count` counts
 * the modules through a resolve hook, which costs time of its own: counted runs are not timed.
 */
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const [target, mode] = process.argv.slice(2);
if (!target) throw new Error('usage: node bench/import-cost.ts <module> [--count]');
const specifier = target.startsWith('.') || target.startsWith('/') ? pathToFileURL(target).href : target;

const loaded = new Set<string>();
if (mode === '--count') {
  registerHooks({
    resolve(spec, context, next) {
      const resolved = next(spec, context);
      loaded.add(resolved.url);
      return resolved;
    },
  });
}
const before = process.cpuUsage();
await import(specifier);
const used = process.cpuUsage(before);
process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000, modules: loaded.size })}\n`);
// What the module started (timers, pools) must not hold the process.
process.exit(0);
