/**
 * Studio's request model (docs/studio.md "The workbench", "Code for a request"): one plain value
 * from which the call the console runs, its curl, its `fetch` and its BagelDB-client code are all
 * made, so the four always say the same thing. Pure: no I/O, no DOM.
 *
 * The list URL is built exactly as the official client builds it (pageNumber, sort, order,
 * perPage, find; then `&query=` terms, each URI-encoded and joined by `%2B`; then `&nestedID=` raw),
 * so the copied client code sends the very request Studio sent.
 */
import { fieldType, type FilterOperator, type SchemaField } from './field-types/index.ts';

export const studioMethods = ['list', 'get', 'create', 'update', 'delete', 'upload'] as const;
export type StudioMethod = (typeof studioMethods)[number];

/** Methods that change data: Studio asks before running them. */
export const writeMethods: readonly StudioMethod[] = ['create', 'update', 'delete', 'upload'];
export const isWrite = (method: StudioMethod) => writeMethods.includes(method);

/** Methods that address one item (its id is needed). */
const itemMethods: readonly StudioMethod[] = ['get', 'update', 'delete', 'upload'];
export const needsItemID = (method: StudioMethod) => itemMethods.includes(method);
/** Methods that send a JSON body. */
export const sendsBody = (method: StudioMethod) => method === 'create' || method === 'update';

/** One `query` term: `key:operator:value` (an ItemRef is keyed `slug.itemRefID`, its value a comma list of ids). */
export interface StudioCondition {
  key: string;
  operator: FilterOperator;
  value: string;
}

/** A nested level below the collection: the item it hangs under and the nested collection's slug. */
export interface StudioLevel {
  parentID: string;
  slug: string;
}

export interface StudioRequest {
  collection: string;
  /** Nested levels, outermost first; empty for the collection itself. */
  levels: StudioLevel[];
  method: StudioMethod;
  /** The item get, update, delete and upload address. */
  itemID: string;
  conditions: StudioCondition[];
  /** Text searched case-insensitively in `fields` (sent as `find`, which the public API takes). */
  search: { text: string; fields: string[] } | null;
  sort: { key: string; order: 'asc' | 'desc' } | null;
  pageNumber: number;
  perPage: number;
  /** The JSON body of create and update, as typed. */
  body: string;
  /** What upload sends: the image field's slug, the file's name and an optional alt text. */
  upload: { imageSlug: string; fileName: string; altText: string };
}

export const emptyStudioRequest: StudioRequest = {
  collection: '',
  levels: [],
  method: 'list',
  itemID: '',
  conditions: [],
  search: null,
  sort: null,
  pageNumber: 1,
  perPage: 20,
  body: '{}',
  upload: { imageSlug: '', fileName: '', altText: '' },
};

/** The stand-in for the secret in generated code: the reader puts one of the project's API tokens there. */
export const tokenPlaceholder = 'YOUR_API_TOKEN';

/** Why a request cannot run yet; each is a message key under `studio.problem.`. */
export type StudioProblem = 'collection' | 'parent' | 'itemID' | 'bodyJson' | 'bodyObject' | 'imageSlug' | 'file' | 'perPage' | 'pageNumber';

const idPattern = /^[^/?#&\s]+$/;

/** What keeps the request from running: empty when it may run. */
export function requestProblems(request: StudioRequest, options: { hasFile?: boolean } = {}): StudioProblem[] {
  const problems: StudioProblem[] = [];
  if (!request.collection) problems.push('collection');
  if (request.levels.some((level) => !idPattern.test(level.parentID))) problems.push('parent');
  if (needsItemID(request.method) && !idPattern.test(request.itemID)) problems.push('itemID');
  if (sendsBody(request.method)) {
    const parsed = parseBody(request.body);
    if (parsed === undefined) problems.push('bodyJson');
    else if (parsed === null) problems.push('bodyObject');
  }
  if (request.method === 'upload') {
    if (!request.upload.imageSlug) problems.push('imageSlug');
    if (options.hasFile === false || !request.upload.fileName) problems.push('file');
  }
  if (request.method === 'list') {
    if (!Number.isInteger(request.perPage) || request.perPage < 0) problems.push('perPage');
    if (!Number.isInteger(request.pageNumber) || request.pageNumber < 1) problems.push('pageNumber');
  }
  return problems;
}

/** The body as an object; null when it is JSON but not an object, undefined when it is not JSON. */
export function parseBody(text: string): Record<string, unknown> | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

const regexSpecials = /[.*+?^${}()|[\]\\]/g;
const escapeRegex = (text: string) => text.replace(regexSpecials, '\\$&');

/**
 * The `query` parameter cannot carry a `+` (the client encodes it as the terms' separator too):
 * a condition whose value holds one goes into `find` instead.
 */
const fitsQuery = (condition: StudioCondition) => !condition.value.includes('+');

const findOperator: Record<Exclude<FilterOperator, '=' | 'within'>, string> = { '!=': '$ne', '>': '$gt', '<': '$lt', regex: '$regex' };

function conditionToFind(condition: StudioCondition): Record<string, unknown> {
  if (condition.operator === '=') return { [condition.key]: condition.value };
  if (condition.operator === 'regex') return { [condition.key]: { $regex: condition.value, $options: 'i' } };
  if (condition.operator === 'within') return { [condition.key]: condition.value };
  return { [condition.key]: { [findOperator[condition.operator]]: condition.value } };
}

/** The `query` terms of a list: its conditions that the parameter can carry. */
export function queryTerms(request: StudioRequest): string[] {
  return request.conditions.filter(fitsQuery).map((c) => `${c.key}:${c.operator}:${c.value}`);
}

/** The `find` filter of a list (the search, and conditions `query` cannot carry); undefined when none. */
export function findOf(request: StudioRequest): Record<string, unknown> | undefined {
  const parts: Record<string, unknown>[] = request.conditions.filter((c) => !fitsQuery(c)).map(conditionToFind);
  const text = request.search?.text.trim() ?? '';
  if (text && request.search && request.search.fields.length > 0) {
    const pattern = escapeRegex(text);
    const any = request.search.fields.map((slug) => ({ [slug]: { $regex: pattern, $options: 'i' } }));
    parts.push(any.length === 1 ? any[0]! : { $or: any });
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { $and: parts };
}

/** The fields a search looks in: text fields the list's text search matches by regex. */
export const searchFields = (fields: readonly SchemaField[]) =>
  fields.filter((field) => fieldType(field.type)?.search === 'regex' && fieldType(field.type)?.valueKind === 'text').map((field) => field.slug);

/**
 * A condition from the item list's filter parameter (`{key, operator, filterValue | refFilterVal}`,
 * src/screens/items/filter-state.ts) on a level with `fields`: dates become RFC 3339, ItemRefs are
 * keyed `slug.itemRefID` with a comma list of ids. Undefined when nothing filters.
 */
export function conditionFromFilter(filter: string | undefined, fields: readonly SchemaField[]): StudioCondition | undefined {
  if (!filter) return undefined;
  let entry: { key?: unknown; operator?: unknown; filterValue?: unknown; refFilterVal?: unknown };
  try {
    entry = JSON.parse(filter) as typeof entry;
  } catch {
    return undefined;
  }
  if (typeof entry.key !== 'string' || typeof entry.operator !== 'string') return undefined;
  const operator = entry.operator as FilterOperator;
  if (Array.isArray(entry.refFilterVal)) {
    const ids = entry.refFilterVal.map((ref: unknown) => (typeof ref === 'object' && ref !== null ? String((ref as { itemRefID?: unknown }).itemRefID ?? '') : String(ref)));
    return { key: `${entry.key}.itemRefID`, operator, value: ids.filter(Boolean).join(',') };
  }
  const field = fields.find((candidate) => candidate.slug === entry.key);
  const value = entry.filterValue;
  if (field && fieldType(field.type)?.valueKind === 'date' && typeof value === 'number') return { key: entry.key, operator, value: new Date(value * 1000).toISOString() };
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  return { key: entry.key, operator, value: String(value) };
}

/** The nestedID of the request's level: slugs and parent ids alternating (`chapters.<id>.paragraphs`). */
function levelChain(request: StudioRequest): string {
  return request.levels.map((level, i) => (i === 0 ? level.slug : `${level.parentID}.${level.slug}`)).join('.');
}

export interface StudioHttp {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query under the origin, `/api/public/…`. */
  path: string;
  /** The JSON text of create and update (pretty-printed), or the multipart fields of upload. */
  body: { kind: 'json'; text: string } | { kind: 'multipart'; altText: string; fileName: string } | null;
}

const seg = encodeURIComponent;
export const publicBase = '/api/public';

/** The HTTP call of a request (call requestProblems first: a request with problems gives a call that fails). */
export function toHttp(request: StudioRequest): StudioHttp {
  const c = seg(request.collection);
  const nested = request.levels.length > 0;
  const top = nested ? request.levels[0]!.parentID : request.itemID;
  const chain = levelChain(request);
  const itemChain = nested ? `${chain}.${request.itemID}` : '';
  const items = `${publicBase}/collection/${c}/items`;
  const json = (): StudioHttp['body'] => ({ kind: 'json', text: JSON.stringify(parseBody(request.body) ?? {}, null, 2) });
  switch (request.method) {
    case 'list': {
      const params = new URLSearchParams();
      params.append('pageNumber', String(request.pageNumber));
      if (request.sort) {
        params.append('sort', request.sort.key);
        params.append('order', request.sort.order);
      }
      params.append('perPage', String(request.perPage));
      const find = findOf(request);
      if (find) params.append('find', JSON.stringify(find));
      let path = `${nested ? `${items}/${seg(top)}` : items}?${params.toString()}`;
      const terms = queryTerms(request);
      if (terms.length > 0) path += `&query=${terms.map((term) => encodeURIComponent(term)).join('%2B')}`;
      if (nested) path += `&nestedID=${chain}`;
      return { method: 'GET', path, body: null };
    }
    case 'get':
      return { method: 'GET', path: `${items}/${seg(top)}${nested ? `?nestedID=${itemChain}` : ''}`, body: null };
    case 'create':
      return { method: 'POST', path: nested ? `${items}/${seg(top)}?nestedID=${chain}` : items, body: json() };
    case 'update':
      return { method: 'PUT', path: `${items}/${seg(top)}${nested ? `?nestedID=${itemChain}` : ''}`, body: json() };
    case 'delete':
      return { method: 'DELETE', path: `${items}/${seg(top)}${nested ? `?nestedID=${itemChain}` : ''}`, body: null };
    case 'upload':
      return {
        method: 'PUT',
        path: `${items}/${seg(top)}/image?imageSlug=${seg(request.upload.imageSlug)}&nestedID=${itemChain}`,
        body: { kind: 'multipart', altText: request.upload.altText, fileName: request.upload.fileName || 'image.jpg' },
      };
  }
}

/** The headers every call carries (the multipart type is left to the sender, which adds the boundary). */
export function requestHeaders(http: StudioHttp, token: string): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    'Accept-Version': 'v1',
    ...(http.body?.kind === 'json' ? { 'Content-Type': 'application/json' } : {}),
  };
}

/** A word for a POSIX shell: single-quoted, its own quotes closed and escaped. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const js = (value: unknown) => JSON.stringify(value);
const indent = (text: string, by: string) => text.split('\n').join(`\n${by}`);

export interface CodeOptions {
  /** The console's origin, `https://larder.example.com`. */
  origin: string;
  token?: string;
}

export function toCurl(request: StudioRequest, options: CodeOptions): string {
  const http = toHttp(request);
  const lines = [`curl -X ${http.method} ${shellWord(options.origin + http.path)}`];
  for (const [name, value] of Object.entries(requestHeaders(http, options.token ?? tokenPlaceholder))) lines.push(`-H ${shellWord(`${name}: ${value}`)}`);
  if (http.body?.kind === 'json') lines.push(`--data ${shellWord(http.body.text)}`);
  if (http.body?.kind === 'multipart') {
    if (http.body.altText) lines.push(`-F ${shellWord(`altText=${http.body.altText}`)}`);
    lines.push(`-F ${shellWord(`imageFile=@${http.body.fileName}`)}`);
  }
  return lines.join(' \\\n  ');
}

export function toFetch(request: StudioRequest, options: CodeOptions): string {
  const http = toHttp(request);
  const headers = requestHeaders(http, options.token ?? tokenPlaceholder);
  const out: string[] = [];
  if (http.body?.kind === 'multipart') {
    out.push('// file: a File or Blob, e.g. from <input type="file">');
    out.push('const form = new FormData();');
    if (http.body.altText) out.push(`form.append('altText', ${js(http.body.altText)});`);
    out.push(`form.append('imageFile', file, ${js(http.body.fileName)});`);
    out.push('');
  }
  out.push(`const response = await fetch(${js(options.origin + http.path)}, {`);
  out.push(`  method: ${js(http.method)},`);
  out.push(`  headers: ${indent(JSON.stringify(headers, null, 2), '  ')},`);
  if (http.body?.kind === 'json') out.push(`  body: JSON.stringify(${indent(http.body.text, '  ')}),`);
  if (http.body?.kind === 'multipart') out.push('  body: form,');
  out.push('});');
  out.push(
    request.method === 'list'
      ? "console.log(response.status, response.headers.get('item-count'), await response.json());"
      : 'console.log(response.status, await response.json());',
  );
  return out.join('\n');
}

/**
 * The BagelDB JS client's code (`@bageldb/bagel-db`), pointed at this installation's public API.
 * It ends with `response`, the client's answer (an axios response: `data`, `headers`).
 */
export function toBagelClient(request: StudioRequest, options: CodeOptions): string {
  const chain: string[] = [`.collection(${js(request.collection)})`];
  request.levels.forEach((level) => chain.push(`.item(${js(level.parentID)})`, `.collection(${js(level.slug)})`));
  const body = () => indent(JSON.stringify(parseBody(request.body) ?? {}, null, 2), '  ');
  switch (request.method) {
    case 'list':
      for (const term of request.conditions.filter(fitsQuery)) chain.push(`.query(${js(term.key)}, ${js(term.operator)}, ${js(term.value)})`);
      {
        const find = findOf(request);
        if (find) chain.push(`.find(${indent(JSON.stringify(find, null, 2), '  ')})`);
      }
      if (request.sort) chain.push(`.sort(${js(request.sort.key)}, ${js(request.sort.order)})`);
      chain.push(`.perPage(${request.perPage})`, `.pageNumber(${request.pageNumber})`, '.get()');
      break;
    case 'get':
      chain.push(`.item(${js(request.itemID)})`, '.get()');
      break;
    case 'create':
      chain.push(`.post(${body()})`);
      break;
    case 'update':
      chain.push(`.item(${js(request.itemID)})`, `.put(${body()})`);
      break;
    case 'delete':
      chain.push(`.item(${js(request.itemID)})`, '.delete()');
      break;
    case 'upload': {
      const args = [`selectedImage: file`, `fileName: ${js(request.upload.fileName || 'image.jpg')}`];
      if (request.upload.altText) args.push(`altText: ${js(request.upload.altText)}`);
      chain.push(`.item(${js(request.itemID)})`, `.uploadImage(${js(request.upload.imageSlug)}, { ${args.join(', ')} })`);
      break;
    }
  }
  const out = [
    "import Bagel from '@bageldb/bagel-db';",
    '',
    `const db = new Bagel(${js(options.token ?? tokenPlaceholder)}, {`,
    `  baseEndpoint: ${js(options.origin + publicBase)},`,
    `  authEndpoint: ${js(`${options.origin}/auth/public`)},`,
    '});',
    '',
  ];
  if (request.method === 'upload') out.push('// file: a File or Blob in the browser, fs.createReadStream(path) on Node (with globalThis.FormData = require("form-data"))');
  out.push(`const response = await db`, ...chain.map((link) => `  ${link}`));
  out[out.length - 1] += ';';
  out.push(request.method === 'list' ? "console.log(response.headers['item-count'], response.data);" : 'console.log(response.status, response.data);');
  return out.join('\n');
}

/** The code kinds Studio shows. */
export const codeKinds = ['curl', 'fetch', 'client'] as const;
export type CodeKind = (typeof codeKinds)[number];

export function codeFor(kind: CodeKind, request: StudioRequest, options: CodeOptions): string {
  if (kind === 'curl') return toCurl(request, options);
  if (kind === 'fetch') return toFetch(request, options);
  return toBagelClient(request, options);
}
