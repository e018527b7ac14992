/**
 * Runs once before the server suites: migrates one PGlite template and writes its dump to a
 * file, so every suite clones it (~1 s) instead of running initdb (~5 s).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPgliteTemplate } from '../../../server/db/index.ts';

export const templatePath = path.resolve('.tmp/pglite-template.tar.gz');

export default async function setup() {
  mkdirSync(path.dirname(templatePath), { recursive: true });
  const dump = await createPgliteTemplate();
  // Written aside and renamed: suites of another run may be reading the template right now.
  const partial = `${templatePath}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, templatePath);
}
