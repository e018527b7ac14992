/**
 * The webhook benchmark's receiver (bench/webhooks.ts), in a process of its own as a real receiver
 * would be: answers every request 200 and tells the parent, when asked, how many it received and
 * when the last one arrived (Date.now()).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let received = 0;
let lastAt = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received++;
    lastAt = Date.now();
    response.end('ok');
  });
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message === 'reset') received = 0;
  process.send!({ received, lastAt });
});
process.on('disconnect', () => process.exit(0));
