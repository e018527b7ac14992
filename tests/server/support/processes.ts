/**
 * Several server processes behind one loopback HTTP proxy (http-proxy-3), as an installation runs
 * them behind any proxy (the processes themselves are started by e2e/support/server.ts).
 *
 * The test chooses the process per request with the `x-test-upstream` header (a name given to
 * `startProxy`); the proxy removes it, so the app sees an ordinary request. Without it the proxy
 * takes the processes in turn. Every answer says who served it in `x-test-served-by`; a process
 * that cannot be reached gives a 502 with `x-test-proxy-error`, which the client may retry
 * elsewhere — as a client behind a real proxy retries.
 *
 * `x-test-drop` makes the proxy drop the connection, as a failing proxy or network does:
 * `answer` — the request reaches the process whole, and both connections are cut when its answer
 * begins (the client never learns the outcome); `body:<bytes>` — the request's first bytes reach
 * the process, then both connections are cut mid-body.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxyServer } from 'http-proxy-3';

export const UPSTREAM_HEADER = 'x-test-upstream';
export const SERVED_BY_HEADER = 'x-test-served-by';
export const PROXY_ERROR_HEADER = 'x-test-proxy-error';
export const DROP_HEADER = 'x-test-drop';
/** Requests whose connections are cut when their answer begins. */
const dropAtAnswer = new WeakSet<IncomingMessage>();

export interface TestProxy {
  url: string;
  /** Requests that reached no process, by the process they were sent to. */
  failures: Record<string, number>;
  close(): Promise<void>;
}

/** A proxy on a free loopback port in front of `upstreams` (name → base URL). */
export async function startProxy(upstreams: Record<string, string> | (() => Record<string, string>)): Promise<TestProxy> {
  const proxy = createProxyServer({ xfwd: true });
  const failures: Record<string, number> = {};
  // A process that dies mid-answer (a live stream, kill -9) must end the client's answer too, as a
  // proxy in front of an installation does; piping alone would leave it open forever.
  proxy.on('proxyRes', (proxyRes, request, response) => {
    if (dropAtAnswer.has(request)) {
      proxyRes.destroy();
      response.socket?.destroy();
      return;
    }
    proxyRes.once('close', () => {
      if (!proxyRes.complete) response.destroy();
    });
  });
  let turn = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const targets = typeof upstreams === 'function' ? upstreams() : upstreams;
    const names = Object.keys(targets);
    const asked = request.headers[UPSTREAM_HEADER];
    delete request.headers[UPSTREAM_HEADER];
    const name = typeof asked === 'string' && targets[asked] ? asked : names[turn++ % names.length]!;
    response.setHeader(SERVED_BY_HEADER, name);
    const drop = request.headers[DROP_HEADER];
    delete request.headers[DROP_HEADER];
    if (drop === 'answer') dropAtAnswer.add(request);
    const cutAfter = typeof drop === 'string' && drop.startsWith('body:') ? Number(drop.slice(5)) : undefined;
    if (cutAfter !== undefined) {
      // Forwarded by hand, so the cut falls where asked: the first bytes go, then both connections close.
      const upstream = httpRequest(new URL(request.url ?? '/', targets[name]), { method: request.method, headers: request.headers });
      upstream.on('error', () => {});
      upstream.flushHeaders();
      let sent = 0;
      request.on('data', (chunk: Buffer) => {
        if (sent >= cutAfter) return;
        const part = chunk.subarray(0, cutAfter - sent);
        sent += part.length;
        upstream.write(part);
        if (sent >= cutAfter) setTimeout(() => {
          upstream.destroy();
          request.socket.destroy();
        }, 50);
      });
      return;
    }
    proxy.web(request, response, { target: targets[name] }, (error: Error) => {
      failures[name] = (failures[name] ?? 0) + 1;
      if (response.headersSent) {
        response.destroy(error);
        return;
      }
      response.writeHead(502, { [PROXY_ERROR_HEADER]: (error as NodeJS.ErrnoException).code ?? error.message, 'content-type': 'text/plain' });
      response.end(`no answer from ${name}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failures,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      proxy.close();
    },
  };
}
