/**
 * The problem vocabulary is closed and the catalogue has no dead text: every code the server sends
 * is in definitions/problems.ts with the status it is sent with and a message, and every message
 * of the catalogue is used by some source file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { allMessages as en } from '../../definitions/messages/all.ts';
import { formatMessage } from '../../definitions/messages/format.ts';
import { problems, type ProblemCode, type ProblemDefinition } from '../../definitions/problems.ts';
import { ApiError } from '../../src/api/errors.ts';
import { problemText } from '../../src/hooks/problem-text.ts';

const root = join(import.meta.dirname, '../..');
const catalogue = en as Record<string, string>;

function sources(dir: string, out: { path: string; text: string }[] = []) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (/\.(ts|tsx|json)$/.test(entry.name) && !path.startsWith(join('definitions', 'messages'))) out.push({ path, text: readFileSync(join(root, path), 'utf8') });
  }
  return out;
}

const server = sources('server');
const product = [...server, ...sources('definitions'), ...sources('machines'), ...sources('renderers'), ...sources('src')];

/** Status of each error helper of server/lib/errors.ts (and the local aliases of the query and map routes). */
const helperStatus: Record<string, number> = {
  badRequest: 400,
  badQuery: 400,
  queryError: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  unsupported: 415,
  unsupportedMediaType: 415,
};

/** Every `[code, status]` the server source passes to an error helper, a problem or an AppError. */
function sentCodes(): { code: string; status: number; where: string }[] {
  const found: { code: string; status: number; where: string }[] = [];
  for (const { path, text } of server) {
    for (const m of text.matchAll(/\b(\w+)\(\s*'([a-z0-9_]+)'/g)) {
      if (Object.hasOwn(helperStatus, m[1]!)) found.push({ code: m[2]!, status: helperStatus[m[1]!]!, where: path });
    }
    for (const m of text.matchAll(/(?:\bAppError|\bsuper|\bproblem)\(\s*(\d{3}),\s*'([a-z0-9_]+)'/g)) found.push({ code: m[2]!, status: Number(m[1]), where: path });
    // The framework's and the HTTP parser's answers are tables of `[status, code, …]`.
    for (const m of text.matchAll(/\[\s*(\d{3}),\s*'([a-z0-9_]+)'/g)) found.push({ code: m[2]!, status: Number(m[1]), where: path });
  }
  return found;
}

describe('the problem table', () => {
  it('gives every code a message of the catalogue, named problem.<code>', () => {
    const withoutMessage = Object.entries(problems).filter(([code, p]) => p.message !== `problem.${code}` || !(p.message in catalogue));
    expect(withoutMessage.map(([code]) => code)).toEqual([]);
  });

  it('holds every code the server sends, with the status it is sent with', () => {
    const sent = sentCodes();
    expect(sent.length).toBeGreaterThan(100);
    const wrong = sent.filter(({ code, status }) => problems[code as ProblemCode]?.status !== status).map(({ code, status, where }) => `${where}: ${code} ${status}`);
    expect(wrong).toEqual([]);
  });

  it("gives the console the catalogue's text, with the specifics the server sent as params", () => {
    const text = (init: { status?: number; code: string; detail: string; params?: Record<string, string | number> }) =>
      problemText(new ApiError({ status: init.status ?? 400, code: init.code, detail: init.detail, problem: init.params ? { type: '', title: '', status: init.status ?? 400, code: init.code, detail: init.detail, params: init.params } : null }), formatMessage);
    expect(text({ code: 'invalid_grant', detail: 'The e-mail address, phone number or password is not correct.' })).toBe(en['problem.invalid_grant']);
    expect(text({ code: 'collection_referenced', detail: 'Field "Author" of collection "books" refers to this collection.', params: { field: 'Author', collection: 'books' } })).toBe(
      'Field "Author" of collection "books" refers to this collection; change or delete it first.',
    );
    // An answer without the params its message needs (a proxy's, an older server's) shows its detail.
    expect(text({ code: 'collection_referenced', detail: 'Field "Author" of collection "books" refers to this collection.' })).toBe('Field "Author" of collection "books" refers to this collection.');
    expect(text({ code: 'rate_limited', detail: 'Too many attempts. Try again in 30 seconds.', params: { seconds: 30 } })).toBe('Too many attempts. Try again in 30 seconds.');
    expect(text({ code: 'rate_limited', detail: 'Slow down', params: { seconds: 0 } })).toBe('Too many attempts. Try again in a moment.');
    expect(text({ code: 'network_error', detail: 'offline' })).toBe('offline');
    expect(text({ status: 0, code: 'network_error', detail: 'offline' })).toBe(en['problem.network']);
    expect(text({ code: 'validation_failed', detail: 'body/name must NOT have fewer than 1 characters' })).toBe('body/name must NOT have fewer than 1 characters');
  });

  /** The names of an ICU message's arguments, nested ones (in plural and select branches) too. */
  const argumentsOf = (elements: MessageFormatElement[], names = new Set<string>()): Set<string> => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      if ('value' in element && typeof element.value === 'string' && element.type !== TYPE.tag) names.add(element.value);
      if ('options' in element) for (const option of Object.values(element.options)) argumentsOf(option.value, names);
      if ('children' in element) argumentsOf(element.children, names);
    }
    return names;
  };

  it('names, for each code, exactly the placeholders of its message', () => {
    const mismatched = Object.entries(problems as Record<string, ProblemDefinition>)
      .map(([code, p]) => ({ code, declared: [...(p.params ?? [])].sort(), used: [...argumentsOf(parse(catalogue[p.message]!))].sort() }))
      .filter(({ declared, used }) => declared.join() !== used.join());
    expect(mismatched).toEqual([]);
  });

  it('sends the params of a code whose message has placeholders wherever the server builds its problem by hand', () => {
    // The helpers of server/lib/errors.ts take the params by type; an AppError or problem built
    // directly for such a code must pass them in the same call.
    const withParams = new Set(Object.entries(problems as Record<string, ProblemDefinition>).filter(([, p]) => p.params).map(([code]) => code));
    const bare: string[] = [];
    for (const { path, text } of server) {
      for (const m of text.matchAll(/(?:\bAppError|\bproblem)\(\s*(\d{3}),\s*'([a-z0-9_]+)'[^;]*/g)) {
        if (withParams.has(m[2]!) && !m[0].includes('params')) bare.push(`${path}: ${m[2]}`);
      }
    }
    expect(bare).toEqual([]);
  });

  it('holds no code the server never sends', () => {
    const text = server.map((file) => file.text).join('\n');
    expect(Object.keys(problems).filter((code) => !text.includes(`'${code}'`))).toEqual([]);
  });
});

/**
 * Keys a source builds from a part it reads at run time. Each entry names the prefix and where it
 * is built; the test also checks the prefix is still built, so the list cannot outlive the code.
 */
const builtKeys: { prefix: string; reason: string }[] = [
  { prefix: 'collectionId.', reason: 'src/screens/collection/collection-draft.ts: one key per collection id problem code' },
  { prefix: 'itemList.filter.op.', reason: 'src/screens/items/FilterControl.tsx: one key per filter operator' },
  { prefix: 'members.status.', reason: "src/screens/organization/UsersSection.tsx: one key per member's status" },
  { prefix: 'layout.settings.endMode.', reason: "renderers/layouts/LayoutSettingsDialog.tsx: one key per calendar event's end mode" },
  { prefix: 'richText.quoteFormat.', reason: 'renderers/fields/rich-text/Toolbar.tsx: one key (and a short one) per quote format' },
  { prefix: 'questionnaire.', reason: 'definitions/forms/questionnaire.ts: one key per answer of each question' },
  { prefix: 'usage.metric.', reason: 'src/screens/organization/UsageTable.tsx: one key per usage metric' },
  { prefix: 'studio.method.', reason: 'src/screens/studio/Workbench.tsx: one key per request method' },
  { prefix: 'studio.problem.', reason: 'src/screens/studio/Workbench.tsx: one key per part a request lacks' },
  { prefix: 'studio.code.', reason: 'src/screens/studio/CodePanel.tsx: one key per code language' },
  { prefix: 'itemImport.format.', reason: 'src/screens/items/ImportItemsDialog.tsx: one key per file format' },
];

/**
 * Keys of screens not built yet whose texts the catalogue keeps word for word (tests/dom/messages.test.ts
 * lists them among the platform's messages). None at present.
 */
const awaitedKeys: string[] = [];

describe('the message catalogue', () => {
  const text = product.map((file) => file.text).join('\n');

  const literals = new Set([...text.matchAll(/(['"`])([\w.+!=<>-]+)\1/g)].map((m) => m[2]!));
  const used = (key: string) => literals.has(key) || builtKeys.some(({ prefix }) => key.startsWith(prefix));

  it('has no key that nothing uses', () => {
    expect(Object.keys(catalogue).filter((key) => !used(key) && !awaitedKeys.includes(key))).toEqual([]);
  });

  it('still awaits each awaited key', () => {
    expect(awaitedKeys.filter((key) => key in catalogue && !used(key))).toEqual(awaitedKeys);
  });

  it.each(builtKeys)('builds keys from the prefix $prefix ($reason)', ({ prefix, reason }) => {
    const file = product.find(({ path }) => relative('.', path) === reason.split(':')[0]);
    expect(file?.text).toContain(`\`${prefix}\${`);
  });
});
