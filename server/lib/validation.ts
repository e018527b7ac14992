/**
 * Request validation. Bodies are checked strictly, with no type coercion: `true`, `[]` or `{}`
 * where a string belongs is refused, not turned into "true". Query strings, params and headers
 * arrive as text, so there numbers and booleans are coerced from it.
 *
 * One text rule holds for every input, before any route sees it (docs/errors.md "Text"): no
 * string anywhere in a request — query, path parameters, headers, a JSON or form body (keys
 * included), a multipart part's name, file name or value — may hold a NUL character or an
 * unpaired UTF-16 surrogate. PostgreSQL refuses NUL in text and jsonb and lone surrogates in
 * jsonb, so such text would otherwise fail deep inside a write as a 500.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { AppError } from './errors.ts';

function make(options: Options) {
  const ajv = new Ajv({ strict: false, allErrors: false, removeAdditional: false, useDefaults: true, ...options });
  addFormats.default(ajv);
  return ajv;
}

/** The one answer to text no database can store. */
export const invalidTextDetail = 'Text may not contain a NUL character or an unpaired surrogate.';

const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Text without NUL and without any surrogate at all (nearly all text) passes this one quick scan. */
const suspect = /[\u0000\ud800-\udfff]/;

/** Whether a string holds a NUL character or an unpaired surrogate. */
export const isUnstorableText = (text: string) => suspect.test(text) && unstorable.test(text);

const isContainer = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !Buffer.isBuffer(value) && !ArrayBuffer.isView(value);

/**
 * Whether any string (an object key or a value) in a parsed value is unstorable. Walks without
 * recursion, so any nesting JSON.parse accepted is walked; buffers (file contents) are bytes, not
 * text, and are skipped.
 */
export function holdsUnstorableText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (isUnstorableText(current)) return true;
    } else if (Array.isArray(current)) {
      for (const entry of current) stack.push(entry);
    } else if (isContainer(current)) {
      for (const key of Object.keys(current)) {
        if (isUnstorableText(key)) return true;
        stack.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * Where the first unstorable text of a value is, as the top-level key (or index) it is under, `''`
 * for the value itself; undefined when there is none.
 */
export function findUnstorableText(value: unknown): string | undefined {
  if (!isContainer(value)) return holdsUnstorableText(value) ? '' : undefined;
  for (const key of Object.keys(value)) {
    if (isUnstorableText(key)) return JSON.stringify(key).slice(1, -1);
    if (holdsUnstorableText((value as Record<string, unknown>)[key])) return key;
  }
  return undefined;
}

/**
 * The problem, its path named as content errors name theirs (server/content/routes.ts): a body's
 * property (an item's field) by its name, other parts after their own (`querystring.search`).
 */
const invalidText = (where: string, key: string) =>
  new AppError(400, 'invalid_text', invalidTextDetail, {
    errors: [{ path: where === 'body' ? key : [where, key].filter(Boolean).join('.'), message: 'contains a NUL character or an unpaired surrogate' }],
  });

/** Throws the invalid-text problem when the value holds unstorable text; `where` names the request part. */
export function refuseUnstorableText(value: unknown, where: string): void {
  const key = findUnstorableText(value);
  if (key !== undefined) throw invalidText(where, key);
}

type Part = { fieldname?: string; filename?: string; value?: unknown; file?: { resume(): unknown } };

/** Checks a multipart part's name, file name and value (named by the part); a refused file part is drained first. */
function checkPart(part: Part | undefined) {
  if (!part) return;
  const name = part.fieldname ?? '';
  if (!isUnstorableText(name) && !holdsUnstorableText([part.filename, part.value])) return;
  part.file?.resume();
  throw invalidText('body', isUnstorableText(name) ? JSON.stringify(name).slice(1, -1) : name);
}

/** The multipart readers @fastify/multipart gives a request (absent outside its scopes). */
interface MultipartReaders {
  parts?: (...args: unknown[]) => AsyncIterable<Part>;
  files?: (...args: unknown[]) => AsyncIterable<Part>;
  file?: (...args: unknown[]) => Promise<Part | undefined>;
}

/**
 * Multipart bodies are read by the routes as streams (`request.parts()`), after every hook: the
 * request's own readers are wrapped so each part is checked as it is read.
 */
function checkMultipartReaders(request: MultipartReaders) {
  for (const name of ['parts', 'files'] as const) {
    const read = request[name];
    if (typeof read !== 'function') continue;
    request[name] = async function* (...args: unknown[]) {
      for await (const part of read.apply(request, args)) {
        checkPart(part);
        yield part;
      }
    };
  }
  const one = request.file;
  if (typeof one === 'function') {
    request.file = async (...args: unknown[]) => {
      const part = await one.apply(request, args);
      checkPart(part);
      return part;
    };
  }
}

/** The body each request was last checked with (a multipart plugin may attach one later). */
const checkedBodies = new WeakMap<FastifyRequest, unknown>();

function checkBody(request: FastifyRequest) {
  if (request.body === undefined || checkedBodies.get(request) === request.body) return;
  // A body handed on as the raw stream (an item import's file) is read, and its text checked, by its route.
  if (request.body instanceof Readable) return;
  checkedBodies.set(request, request.body);
  refuseUnstorableText(request.body, 'body');
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

  // First of every route's hooks (added to the root before any plugin): text in the address and
  // headers is refused before authentication or a rate limit reads it.
  app.addHook('onRequest', async (request) => {
    refuseUnstorableText(request.params, 'params');
    refuseUnstorableText(request.query, 'querystring');
    refuseUnstorableText(request.headers, 'headers');
    if (request.headers['content-type']?.toLowerCase().includes('multipart')) checkMultipartReaders(request as unknown as MultipartReaders);
  });
  // Bodies once parsed, before the schema; again before the handler when a plugin's own
  // preValidation hook attached one (multipart fields as keys and values).
  app.addHook('preValidation', async (request) => checkBody(request));
  app.addHook('preHandler', async (request) => checkBody(request));
}
