/**
 * CPU time of this machine's processes, read from /proc (Linux): for the benchmarks' accounts of
 * where the CPU went (bench/list.ts's database backends, bench/webhooks.ts's BENCH_TRACE).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc's clock ticks a second. */
const ticksPerSecond = 100;

/** The CPU milliseconds (user + system) a process has used; undefined when it is not this machine's or has ended. */
export function processCpuMs(pid: number | string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: fields are counted after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** Every process's CPU milliseconds so far, keyed by `<pid> <command line>`. */
export function procSnap(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const ms = processCpuMs(pid);
    if (ms === undefined) continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 70);
    } catch {
      /* ended meanwhile */
    }
    out.set(`${pid} ${command}`, ms);
  }
  return out;
}

/** The processes that used at least 20 ms of CPU between two snapshots, most first, a line each. */
export function procDiff(before: Map<string, number>, after: Map<string, number>): string {
  const rows: [string, number][] = [];
  for (const [key, ms] of after) {
    const used = ms - (before.get(key) ?? 0);
    if (used >= 20) rows.push([key, used]);
  }
  return rows
    .sort((a, b) => b[1] - a[1])
    .map(([key, used]) => `    ${String(Math.round(used)).padStart(6)} ms ${key}`)
    .join('\n');
}
