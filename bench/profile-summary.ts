/**
 * Summarises a V8 .cpuprofile (as written by BENCH_CPU_PROF=dir npm run bench) without a GUI:
 * self time by package (this project's src/ per file, each npm package, Node internals, GC),
 * then the top functions by self and by inclusive time. Percentages are of non-idle time.
 *
 *   node bench/profile-summary.ts <file.cpuprofile | directory (newest profile in it)> [top=25] [regex]
 *
 * With a regex, the function lists keep only the entries that match it (e.g. 'src/|modelcontextprotocol').
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const root = fileURLToPath(new URL('..', import.meta.url));

function pickFile(arg: string): string {
  if (!statSync(arg).isDirectory()) return arg;
  const files = readdirSync(arg)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(arg, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) throw new Error(`no .cpuprofile in ${arg}`);
  return files[0]!;
}

function bucketOf(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = path.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return path.startsWith(root) ? `ours: ${relative(root, path)}` : path;
}

function keyOf(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url === '' ? '' : ` ${bucketOf(url, functionName).replace(/^ours: /, '')}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'}${where}`;
}

const [arg, topArg, filterArg] = process.argv.slice(2);
if (!arg) {
  process.stderr.write('usage: node bench/profile-summary.ts <file.cpuprofile | dir> [top] [regex]\n');
  process.exit(2);
}
const file = pickFile(arg);
const top = Number(topArg ?? 25);
const filter = filterArg ? new RegExp(filterArg) : undefined;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const idleUs = profile.nodes
  .filter((n) => n.callFrame.functionName === '(idle)')
  .reduce((sum, n) => sum + (selfUs.get(n.id) ?? 0), 0);
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
const busyUs = totalUs - idleUs;

const buckets = new Map<string, number>();
const selfByKey = new Map<string, number>();
for (const n of profile.nodes) {
  const us = selfUs.get(n.id) ?? 0;
  if (us === 0 || n.callFrame.functionName === '(idle)') continue;
  const bucket = bucketOf(n.callFrame.url, n.callFrame.functionName);
  buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
  selfByKey.set(keyOf(n), (selfByKey.get(keyOf(n)) ?? 0) + us);
}

// Inclusive time per function, counted once per stack even when it recurses.
const inclusiveByKey = new Map<string, number>();
function walk(id: number, onStack: Set<string>): number {
  const n = byId.get(id)!;
  let us = selfUs.get(id) ?? 0;
  const key = keyOf(n);
  const fresh = !onStack.has(key);
  if (fresh) onStack.add(key);
  for (const child of n.children ?? []) us += walk(child, onStack);
  if (fresh) {
    onStack.delete(key);
    inclusiveByKey.set(key, (inclusiveByKey.get(key) ?? 0) + us);
  }
  return us;
}
walk(profile.nodes[0]!.id, new Set());
for (const skip of ['(root)', '(idle)', '(program)']) inclusiveByKey.delete(skip);

const pct = (us: number) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`;
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
const list = (title: string, m: Map<string, number>, n: number) => {
  process.stdout.write(`\n${title}\n`);
  const entries = [...m].filter(([k]) => filter === undefined || filter.test(k));
  for (const [k, us] of entries.sort((a, b) => b[1] - a[1]).slice(0, n)) {
    process.stdout.write(`${ms(us)} ${pct(us)}  ${k}\n`);
  }
};
process.stdout.write(`${file}\nbusy ${ms(busyUs)} of ${ms(totalUs)} sampled (idle ${ms(idleUs)})\n`);
list('Self time by package or file', buckets, 30);
list('Top functions by self time', selfByKey, top);
list('Top functions by inclusive time', inclusiveByKey, top);
