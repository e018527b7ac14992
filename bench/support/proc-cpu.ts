import { readdirSync, readFileSync } from 'node:fs';
export function procSnap(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 70);
      out.set(`${pid} ${cmd || stat.slice(stat.indexOf('(') + 1, close)}`, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {}
  }
  return out;
}
export function procDiff(a: Map<string, number>, b: Map<string, number>): string {
  const rows: [string, number][] = [];
  for (const [k, v] of b) { const d = v - (a.get(k) ?? 0); if (d >= 20) rows.push([k, d]); }
  return rows.sort((x, y) => y[1] - x[1]).map(([k, d]) => `    ${String(d).padStart(6)} ms ${k}`).join('\n');
}
