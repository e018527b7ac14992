/** The project operations of the command line (docs/cli.md). */
import type { Operation } from './operation.ts';

// Each operation has its own input and output types; the registry holds them side by side.
export const projectOperations: readonly Operation<never, unknown>[] = [];
