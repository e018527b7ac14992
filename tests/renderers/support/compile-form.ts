/**
 * Compiles a form definition exactly as the build does (the Vite plugin's standalone source) and
 * loads the resulting module, so tests run the code the browser runs.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FormDefinition } from '../../../definitions/forms/types.ts';
import type { StandaloneValidate } from '../../../renderers/forms/standalone-validator.ts';
import { standaloneValidatorSource } from '../../../vite-plugin-form-validators.ts';

// Inside the project (.tmp is ignored by git): the test runner loads modules from here only.
const root = path.resolve('.tmp');
mkdirSync(root, { recursive: true });
const dir = mkdtempSync(path.join(root, 'validators-'));
let counter = 0;

export async function compileForm(definition: FormDefinition): Promise<StandaloneValidate> {
  counter += 1;
  const file = path.join(dir, `${definition.id}-${counter}.mjs`);
  writeFileSync(file, standaloneValidatorSource(definition));
  const module = (await import(/* @vite-ignore */ file)) as { default: StandaloneValidate };
  return module.default;
}
