/** The project operations of the command line (docs/cli.md "Projects"): export and import of one project. */
import { defineOperation, type Operation } from './operation.ts';
import { exportProject, type ExportInput, type ExportResult } from '../project-transfer/export.ts';
import { importProject, type ImportInput, type ImportResult } from '../project-transfer/import.ts';

export const projectExport = defineOperation<ExportInput, ExportResult>({
  name: 'project.export',
  run: (context, input) => exportProject(context, input),
});

export const projectImport = defineOperation<ImportInput, ImportResult>({
  name: 'project.import',
  run: (context, input) => importProject(context, input),
});

// Each operation has its own input and output types; the registry holds them side by side.
export const projectOperations: readonly Operation<never, unknown>[] = [projectExport, projectImport] as readonly Operation<never, unknown>[];
