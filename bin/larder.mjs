#!/usr/bin/env node
// The `larder` command line (docs/cli.md). It runs the TypeScript sources through tsx, as
// `npm start` does, so the command and the server always share one build of the code.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli/main.ts');
