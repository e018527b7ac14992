/**
 * The webhook sender (server/webhooks/sender.ts), run as a worker thread or as a child process: a
 * URL guard made with the app's guard's options sends each delivery it is given and answers with
 * the receiver's status and the start of its answer, or the guard's refusal. Keeps the HTTP work
 * of deliveries off the thread that serves requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OutboundError, UrlGuard, type GuardedSendOptions, type UrlGuardOptions } from '../lib/url-guard.ts';

type Request = { id: number; uri: string; options: GuardedSendOptions } | 'close';

// A thread gets the guard's options as its workerData, a child process as its one argument (sender.ts).
const options = (parentPort ? workerData : JSON.parse(process.argv[2] ?? '{}')) as UrlGuardOptions;
const guard = new UrlGuard(options);
const answer = (message: unknown) => (parentPort ? parentPort.postMessage(message) : process.send?.(message));

const onRequest = (message: Request) => {
  if (message === 'close') {
    void guard.close().then(() => (parentPort ? parentPort.close() : process.exit(0)));
    return;
  }
  guard.send(message.uri, message.options).then(
    (response) => answer({ id: message.id, ok: true, status: response.status, body: response.body, truncated: response.truncated }),
    (error: unknown) =>
      answer({
        id: message.id,
        ok: false,
        kind: error instanceof OutboundError ? error.kind : 'unreachable',
        message: error instanceof OutboundError ? error.message : 'the address could not be reached',
      }),
  );
};

if (parentPort) parentPort.on('message', onRequest);
else {
  process.on('message', onRequest);
  // The server went away: so does its sender.
  process.on('disconnect', () => process.exit(0));
}
