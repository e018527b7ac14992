/**
 * The peer benchmark's client, in a process of its own (forked by bench/peer.ts), so that what
 * it costs to make requests, read a CSV or send an import file neither runs on the server's event
 * loop nor shows in the server's memory. One job at a time over IPC, one answer back:
 *
 * - `creates`: `callers` clients POST generated items (bench/support/peer-data.ts, from `seed`)
 *   until `count` are made, after `warm` untimed ones; answers every create's round trip and the
 *   wall time of the timed ones;
 * - `csv`: downloads an export and counts its lines and bytes;
 * - `upload`: streams a file as one request's body (an import), answers status, body and time.
 */
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import { postJson } from './http-post.ts';
import { performance } from 'node:perf_hooks';
import { itemBody, peerGenerator } from './peer-data.ts';

export type PeerJob =
  | { type: 'creates'; url: string; token: string; count: number; callers: number; warm: number; seed: number }
  | { type: 'csv'; url: string; token: string }
  | { type: 'upload'; url: string; token: string; file: string; contentType: string };

export type PeerAnswer =
  | { type: 'creates'; times: number[]; seconds: number; errors: string[] }
  | { type: 'csv'; lines: number; bytes: number; seconds: number }
  | { type: 'upload'; status: number; body: string; seconds: number; bytes: number }
  | { type: 'error'; message: string };

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

const post = (url: string, token: string, body: string) => postJson(agent, url, token, body);

async function creates(job: Extract<PeerJob, { type: 'creates' }>): Promise<PeerAnswer> {
  const generator = peerGenerator(job.seed);
  const errors: string[] = [];
  const one = async () => {
    const body = JSON.stringify(itemBody(generator.next()));
    const started = performance.now();
    const answer = await post(job.url, job.token, body);
    const ms = performance.now() - started;
    if (answer.status !== 201 && errors.length < 5) errors.push(`${answer.status} ${answer.text.slice(0, 200)}`);
    return { ms, ok: answer.status === 201 };
  };
  for (let i = 0; i < job.warm; i += 1) await one();
  const times: number[] = [];
  let left = job.count;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: job.callers }, async () => {
      while (left-- > 0) {
        const { ms, ok } = await one();
        if (ok) times.push(ms);
      }
    }),
  );
  return { type: 'creates', times, seconds: (performance.now() - start) / 1000, errors };
}

function csv(url: string, token: string): Promise<PeerAnswer> {
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
      let newlines = 0;
      let bytes = 0;
      let last = 10;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        last = chunk[chunk.length - 1] ?? last;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) newlines += 1;
      });
      // A last line without its newline is a line too.
      response.on('end', () => resolve({ type: 'csv', lines: newlines + (bytes > 0 && last !== 10 ? 1 : 0), bytes, seconds: (performance.now() - start) / 1000 }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

function upload(job: Extract<PeerJob, { type: 'upload' }>): Promise<PeerAnswer> {
  return new Promise((resolve, reject) => {
    const bytes = statSync(job.file).size;
    const start = performance.now();
    const request = http.request(
      job.url,
      { method: 'POST', agent, headers: { authorization: `Bearer ${job.token}`, 'content-type': job.contentType, 'content-length': bytes } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ type: 'upload', status: response.statusCode ?? 0, body: text.slice(0, 2000), seconds: (performance.now() - start) / 1000, bytes }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    createReadStream(job.file).pipe(request);
  });
}

process.on('message', (job: PeerJob) => {
  const run = job.type === 'creates' ? creates(job) : job.type === 'csv' ? csv(job.url, job.token) : upload(job);
  run.then(
    (answer) => process.send!(answer),
    (error: unknown) => process.send!({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies PeerAnswer),
  );
});
process.on('disconnect', () => process.exit(0));
