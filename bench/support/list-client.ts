/**
 * The list benchmark's client, in a process of its own (forked by bench/list.ts), so that what it
 * costs to read a CSV or to parse 1,000 live streams neither shows in the server's memory nor
 * runs on the server's event loop. The parent sends one job at a time over IPC and gets one
 * answer back:
 *
 * - `csv`: downloads the export and counts its lines (the parent samples the server's RSS meanwhile);
 * - `live`: opens `subscribers` streams, then POSTs `items` items one after the other, each once all
 *   subscribers have the previous one (or 5 s passed). Every time here is this process's own
 *   monotonic clock (`performance.now()`): the POST is sent from here, so sending and receipt are
 *   read from one clock and no clocks need to be compared.
 *
 * The streams are bare sockets with a cheap handler (note the time, find the item id): one process
 * reading 1,000 sockets handles them one after the other, so the last one's receipt time includes
 * the handlers that ran before it. How long this process's event loop was busy is reported beside
 * the latency (`clientMs`).
 */
import http from 'node:http';
import { postJson } from './http-post.ts';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export type ClientJob =
  | { type: 'csv'; url: string; token: string }
  | { type: 'live'; base: string; token: string; prefix: string; subscribers: number; items: number };

export type ClientAnswer =
  | { type: 'csv'; rows: number; bytes: number; seconds: number }
  | {
      type: 'live';
      /** Milliseconds from sending each POST to each subscriber's receipt of its message. */
      latencies: number[];
      /** Milliseconds from sending each POST to its answer. */
      postMs: number[];
      /** Per item: milliseconds this process's event loop was busy between sending the POST and the last receipt. */
      clientMs: number[];
      delivered: number;
      expected: number;
    }
  | { type: 'error'; message: string }
  /** Sent during a `live` job, before the answer: every subscriber has its `start`. */
  | { type: 'subscribed' };

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function csv(url: string, token: string): Promise<ClientAnswer> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const request = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      if (response.statusCode !== 200) {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ type: 'error', message: `GET ${url} → ${response.statusCode} ${text.slice(0, 200)}` }));
        return;
      }
      let lines = 0;
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines += 1;
      });
      response.on('end', () => resolve({ type: 'csv', rows: Math.max(0, lines - 1), bytes, seconds: (performance.now() - start) / 1000 }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

const post = (url: string, token: string, body: unknown) => postJson(agent, url, token, JSON.stringify(body));

async function live(job: Extract<ClientJob, { type: 'live' }>): Promise<ClientAnswer> {
  const { base, token, prefix, subscribers, items } = job;
  const sockets: net.Socket[] = [];
  /** Receipt times by item id (a delivery can come before the POST that caused it has its answer). */
  const arrivals = new Map<string, number[]>();
  /** The event loop's use when an item had reached every subscriber. */
  const complete = new Map<string, ReturnType<typeof performance.eventLoopUtilization>>();
  let delivered = 0;
  const marker = '"itemID":"';

  const target = new URL(`${base}${prefix}/collection/articles/live?authorization=${encodeURIComponent(token)}`);
  const open = () =>
    new Promise<void>((resolve, reject) => {
      // A bare socket speaking HTTP/1.1: the cheapest reader there is, so the client's own work
      // stays small. Chunk-size lines between messages are skipped along with everything else that
      // is not a message's item id.
      const socket = net.connect(Number(target.port), target.hostname);
      sockets.push(socket);
      let started = false;
      let rest = '';
      socket.on('connect', () =>
        socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nhost: ${target.host}\r\naccept: text/event-stream\r\n\r\n`),
      );
      socket.on('data', (chunk: Buffer) => {
        const at = performance.now();
        const text = rest + chunk.toString('latin1');
        // Whole SSE blocks only; a block split across reads waits for its end.
        const last = text.lastIndexOf('\n\n');
        rest = last < 0 ? text : text.slice(last + 2);
        if (last < 0) return;
        if (!started) {
          if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(`live → ${text.slice(0, 200)}`));
          if (!text.includes('event: start')) return;
          started = true;
          resolve();
        }
        for (let i = text.indexOf(marker); i >= 0 && i < last; i = text.indexOf(marker, i + 1)) {
          const from = i + marker.length;
          const itemID = text.slice(from, text.indexOf('"', from));
          let list = arrivals.get(itemID);
          if (!list) arrivals.set(itemID, (list = []));
          list.push(at);
          delivered += 1;
          if (list.length === subscribers) complete.set(itemID, performance.eventLoopUtilization());
        }
      });
      socket.on('error', (error) => (started ? undefined : reject(error)));
    });

  try {
    for (let i = 0; i < subscribers; i += 50) await Promise.all(Array.from({ length: Math.min(50, subscribers - i) }, open));
    process.send!({ type: 'subscribed' } satisfies ClientAnswer);
    const latencies: number[] = [];
    const postMs: number[] = [];
    const clientMs: number[] = [];
    for (let i = 0; i < items; i += 1) {
      const loopAtStart = performance.eventLoopUtilization();
      const start = performance.now();
      const answer = await post(`${base}${prefix}/collection/articles/item`, token, { title: `live ${i}` });
      postMs.push(performance.now() - start);
      if (answer.status >= 300) return { type: 'error', message: `POST item → ${answer.status} ${answer.text.slice(0, 300)}` };
      const id = (JSON.parse(answer.text) as { _id: string })._id;
      const deadline = performance.now() + 5000;
      while ((arrivals.get(id)?.length ?? 0) < subscribers && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
      for (const at of arrivals.get(id) ?? []) latencies.push(at - start);
      clientMs.push(performance.eventLoopUtilization(complete.get(id) ?? performance.eventLoopUtilization(), loopAtStart).active);
    }
    return { type: 'live', latencies, postMs, clientMs, delivered, expected: subscribers * items };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

process.on('message', (job: ClientJob) => {
  const run = job.type === 'csv' ? csv(job.url, job.token) : live(job);
  run.then(
    (answer) => process.send!(answer),
    (error: unknown) => process.send!({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies ClientAnswer),
  );
});
process.on('disconnect', () => process.exit(0));
