/**
 * autocannon in a process of its own, so the load generator does not share the server's event
 * loop: `connections` callers in a loop for `seconds`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface Load {
  connections: number;
  requestsPerSecond: number;
  /** autocannon has no 95th percentile: its 97.5th. */
  p95Ms: number;
  errors: number;
}

export interface LoadDetail extends Load {
  /** Answers 2xx. */
  total: number;
  p50Ms: number;
  p97_5Ms: number;
  /** Answers by status code. */
  statusCodes: Record<string, number>;
  seconds: number;
}

export async function autocannon(args: string[], connections: number, seconds: number): Promise<LoadDetail> {
  const child = spawn(process.execPath, [require.resolve('autocannon/autocannon.js'), '--json', '-c', String(connections), '-d', String(seconds), ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const result = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: Record<string, number>;
    errors: number;
    non2xx: number;
    '2xx': number;
    duration: number;
    statusCodeStats?: Record<string, { count: number }>;
  };
  return {
    connections,
    requestsPerSecond: Math.round(result.requests.average),
    p95Ms: result.latency.p97_5 ?? result.latency.p99 ?? 0,
    errors: result.errors + result.non2xx,
    total: result['2xx'],
    p50Ms: result.latency.p50 ?? 0,
    p97_5Ms: result.latency.p97_5 ?? 0,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count])),
    seconds: result.duration,
  };
}
