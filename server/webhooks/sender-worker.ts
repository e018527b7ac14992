/**
 * The webhook sender's thread (server/webhooks/sender.ts): a URL guard like the app's sends each
 * delivery it is given and answers with the receiver's status and the start of its answer, or
 * the guard's refusal. Keeps the HTTP work of deliveries off the thread that serves requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OutboundError, UrlGuard, type GuardedSendOptions, type UrlGuardOptions } from '../lib/url-guard.ts';

const guard = new UrlGuard(workerData as UrlGuardOptions);

parentPort!.on('message', (message: { id: number; uri: string; options: GuardedSendOptions } | 'close') => {
  if (message === 'close') {
    void guard.close().then(() => parentPort!.close());
    return;
  }
  guard.send(message.uri, message.options).then(
    (response) => parentPort!.postMessage({ id: message.id, ok: true, status: response.status, body: response.body, truncated: response.truncated }),
    (error: unknown) =>
      parentPort!.postMessage({
        id: message.id,
        ok: false,
        kind: error instanceof OutboundError ? error.kind : 'unreachable',
        message: error instanceof OutboundError ? error.message : 'the address could not be reached',
      }),
  );
});
