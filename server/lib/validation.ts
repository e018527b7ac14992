/**
 * Request validation. Bodies are checked strictly, with no type coercion: `true`, `[]` or `{}`
 * where a string belongs is refused, not turned into "true". Query strings, params and headers
 * arrive as text, so there numbers and booleans are coerced from it.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';

function make(options: Options) {
  const ajv = new Ajv({ strict: false, allErrors: false, removeAdditional: false, useDefaults: true, ...options });
  addFormats.default(ajv);
  return ajv;
}

export function registerValidation(app: FastifyInstance, shared: object[]) {
  const compilers = {
    body: make({ coerceTypes: false }),
    text: make({ coerceTypes: 'array' }),
  };
  for (const schema of shared) {
    compilers.body.addSchema(schema);
    compilers.text.addSchema(schema);
  }
  app.setValidatorCompiler(({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) =>
    (httpPart === 'body' ? compilers.body : compilers.text).compile(schema as object),
  );
}
