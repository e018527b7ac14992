/** `larder project export|import` (docs/cli.md "Projects"). */
import path from 'node:path';
import type { Command } from 'commander';
import type { RunCommand } from './runner.ts';
import { projectExport, projectImport } from './project-operations.ts';

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

export function registerProjectCommands(program: Command, run: RunCommand): void {
  const project = program.command('project').description('Move one project between organizations or installations, or keep it in git.');

  project
    .command('export')
    .description('Write a project (collections, schemas, items, files, webhooks without secrets, user groups) to an archive.')
    .argument('<organizationID>', 'the organization holding the project')
    .argument('<projectID>', 'the project to export')
    .argument('<file>', 'the archive to write (replaced if it exists)')
    .option('--no-gzip', 'write a plain tar (its JSON entries diff well in git)')
    .action(async (organizationId: string, projectId: string, file: string, options: { gzip: boolean }, command: Command) => {
      await run(command, projectExport, { organizationId, projectId, file: path.resolve(file), gzip: options.gzip }, (out) =>
        [
          `Exported project ${out.project.name} (${out.project.id}) to ${out.file}: ${size(out.bytes)}, sha256 ${out.sha256}.`,
          `${out.counts.collections} collection(s), ${out.counts.items} item(s), ${out.counts.files} file(s) (${size(out.counts.fileBytes)}), ${out.counts.webhooks} webhook(s), ${out.counts.groups} user group(s).`,
          ...(out.missingFiles ? [`${out.missingFiles} stored file(s) were missing from the storage and are not in the archive.`] : []),
        ].join('\n'),
      );
    });

  project
    .command('import')
    .description('Make a new project of an organization from an archive written by `larder project export`.')
    .argument('<file>', 'the archive to read')
    .requiredOption('--organization <organizationID>', 'the organization that gets the new project')
    .option('--name <name>', "the new project's name (default: the archived project's)")
    .action(async (file: string, options: { organization: string; name?: string }, command: Command) => {
      await run(command, projectImport, { file: path.resolve(file), organizationId: options.organization, name: options.name }, (out) =>
        [
          `Imported ${out.source.name} (${out.source.id}) as project ${out.project.name} (${out.project.id}) of organization ${out.organizationID}.`,
          `${out.counts.collections} collection(s), ${out.counts.items} item(s), ${out.counts.files} file(s), ${out.counts.webhooks} webhook(s), ${out.counts.groups} user group(s).`,
          ...out.webhooks.map((hook) => `Webhook ${hook.name} (${hook.id}) is disabled; its new signing secret, shown only now: ${hook.secret}`),
        ].join('\n'),
      );
    });
}
