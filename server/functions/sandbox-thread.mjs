// The Functions sandbox thread's entry (server/functions/sandbox.ts): plain JavaScript, so it starts
// in any host (the server under tsx, the test runner), then loads the TypeScript worker through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./sandbox-worker.ts');
