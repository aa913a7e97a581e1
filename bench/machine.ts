import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** CPU cores in use during a target's runs: by the bench's own processes, and by everything else. */
export interface CpuShare {
  benchCores: number;
  otherCores: number;
}

interface Sample {
  all: number;
  busy: number;
  bench: number;
}

/** Above this many cores used by other processes, a measurement is flagged as disturbed. */
export const BUSY_THRESHOLD_CORES = 0.25;

/**
 * Samples /proc (Linux) around each run of a target: the machine's busy time against the CPU time
 * of the given processes (the bench parent and its server children). On a shared 2-core machine
 * other work skews the ratios, so each row says how much of the machine was not ours. The share
 * is undefined where /proc cannot be read.
 */
export class CpuTally {
  private all = 0;
  private busy = 0;
  private bench = 0;
  private known = true;

  async during<T>(pids: number[], work: () => Promise<T>): Promise<T> {
    const before = sample(pids);
    const result = await work();
    const after = sample(pids);
    if (before && after && after.all > before.all) {
      this.all += after.all - before.all;
      this.busy += after.busy - before.busy;
      this.bench += after.bench - before.bench;
    } else {
      this.known = false;
    }
    return result;
  }

  share(): CpuShare | undefined {
    if (!this.known || this.all === 0) return undefined;
    const cores = availableParallelism();
    const round = (n: number) => Math.max(0, Math.round(n * 100) / 100);
    return {
      benchCores: round((this.bench / this.all) * cores),
      otherCores: round(((this.busy - this.bench) / this.all) * cores),
    };
  }
}

function sample(pids: number[]): Sample | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user)
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = cpu;
    const all = user + nice + system + idle + iowait + irq + softirq + steal;
    const busy = all - idle - iowait - steal;
    let bench = 0;
    for (const pid of pids) bench += cpuTicks(pid);
    return { all, busy, bench };
  } catch {
    return undefined;
  }
}

/** The CPU time (user and system) a process has used, in clock ticks; throws where /proc cannot be read. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the ")" that closes the command name: utime and stime are the 12th and 13th
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Linux's clock ticks per second for /proc times (USER_HZ), the same on every common platform. */
const TICKS_PER_SECOND = 100;

/** The CPU time a running process has used so far, in ms (10 ms steps), or undefined without /proc. */
export function processCpuMs(pid: number): number | undefined {
  try {
    return (cpuTicks(pid) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
