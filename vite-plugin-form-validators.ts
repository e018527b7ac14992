/**
 * Compiles form schemas into standalone validators at build time, so ajv's compiler (which needs
 * `new Function`, refused by the console's CSP) never ships to the browser.
 *
 * `import validate from '…/definitions/forms/login.ts?validator'` gives the validator of the form
 * definition that module exports by default: its schema with ajv-errors catalogue messages
 * (definitions/forms/validation-schema.ts), compiled by ajv into plain ES code.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import addErrors from 'ajv-errors';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { formAjvOptions } from './definitions/forms/ajv-options.ts';
import { validationSchema } from './definitions/forms/validation-schema.ts';
import type { FormDefinition } from './definitions/forms/types.ts';

const QUERY = '?validator';
const PREFIX = '\0form-validator:';
const require = createRequire(import.meta.url);

/** Compiles a form definition into the ES module source of its validator. */
export function standaloneValidatorSource(definition: FormDefinition): string {
  const ajv = new Ajv({ ...formAjvOptions, code: { source: true, esm: true, optimize: true } });
  addFormats(ajv);
  addErrors(ajv);
  const validate = ajv.compile(validationSchema(definition));
  return inlineRuntime(standaloneCode(ajv, validate));
}

/**
 * ajv's standalone code `require`s a few runtime helpers (such as the Unicode-aware string length).
 * Each is one self-contained function, so its source is inlined: the browser gets no CommonJS and
 * no ajv. A helper that is not a plain function stops the build instead of shipping broken code.
 */
function inlineRuntime(source: string): string {
  return source.replace(/require\("([^"]+)"\)\.default/g, (_match, specifier: string) => {
    const helper = (require(specifier) as { default?: unknown }).default;
    if (typeof helper !== 'function') throw new Error(`Cannot inline the ajv runtime helper "${specifier}"; compile a simpler schema.`);
    const text = helper.toString();
    if (/\brequire\(|\bexports\b/.test(text)) throw new Error(`The ajv runtime helper "${specifier}" is not self-contained.`);
    return `(${text})`;
  });
}

export function formValidators(): Plugin {
  return {
    name: 'larder:form-validators',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith(QUERY)) return null;
      const resolved = await this.resolve(source.slice(0, -QUERY.length), importer, { skipSelf: true });
      return resolved ? `${PREFIX}${resolved.id}` : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = id.slice(PREFIX.length);
      this.addWatchFile(file);
      // Loaded here, not at the top: tsx brings esbuild, which tests that use only the compiler avoid.
      const { tsImport } = await import('tsx/esm/api');
      // A fresh import each time, so a changed definition gives a changed validator.
      const module = (await tsImport(`${pathToFileURL(file).href}?t=${Date.now()}`, import.meta.url)) as { default?: FormDefinition };
      const definition = module.default;
      if (!definition?.schema || !Array.isArray(definition.fields)) {
        this.error(`${file} must export a form definition by default to be imported with ${QUERY}.`);
      }
      return standaloneValidatorSource(definition);
    },
  };
}
