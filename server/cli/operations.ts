/**
 * Every operation of the command line by name: the command's own process and a running server's
 * control channel (docs/cli.md "While a server runs") look them up here.
 */
import { adminOperations } from './admin-operations.ts';
import { backupOperations } from './backup-operations.ts';
import { collectionOperations } from './collection-operations.ts';
import type { Operation } from './operation.ts';
import { projectOperations } from './project-operations.ts';

export const operations: ReadonlyMap<string, Operation<never, unknown>> = new Map(
  [...adminOperations, ...backupOperations, ...projectOperations, ...collectionOperations].map((operation) => [operation.name, operation]),
);
