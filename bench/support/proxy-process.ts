/**
 * The loopback proxy of tests/server/support/processes.ts in a process of its own, so it shares no
 * event loop with a benchmark's load generator: the processes in turn per request.
 *
 *   node --import tsx bench/support/proxy-process.ts <name>=<base url> …   # prints {"url": …} once listening
 */
import { startProxy } from '../../tests/server/support/processes.ts';

const upstreams = Object.fromEntries(process.argv.slice(2).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const proxy = await startProxy(upstreams);
process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
const stop = () => void proxy.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
