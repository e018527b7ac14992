/**
 * The pure rules of the item form: what a duplicate copies, which required
 * fields are empty, what a save sends, how a refused save is read, and the field-by-field merge
 * of a conflict (409: the item changed since it was loaded). Everything type-specific is read
 * from the field-type registry; the item-form machine and the item page share these.
 */
import { systemKeys } from '../definitions/content.ts';
import { fieldType } from '../definitions/field-types/index.ts';
import type { SchemaField } from '../definitions/field-types/types.ts';
import { refusalTextOf, type RefusalParams } from '../definitions/field-types/value-refusal.ts';

/** Values keyed by field slug, as the form holds them. */
export type ItemValues = Record<string, unknown>;

/** An item as the server sends it: system keys plus one value per slug. */
export type ItemRecord = ItemValues & { _id?: string };

/** A message to show: a key of definitions/messages/en.json and its parameters. */
export interface ItemMessage {
  key: string;
  values?: Record<string, string>;
}

const systemKeySet: ReadonlySet<string> = new Set(systemKeys);

/** Keys an image value holds only in the browser (the chosen file before upload). */
const browserImageKeys: readonly string[] = ['file', 'selectedImage'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Structural equality of JSON-like values (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  // An unset value and a missing one mean the same to the server.
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((entry, i) => sameValue(entry, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!sameValue(a[key], b[key])) return false;
    return true;
  }
  return false;
}

/** The editable values of an item: system keys left out. */
export function valuesOf(item: ItemValues): ItemValues {
  const values: ItemValues = {};
  for (const [key, value] of Object.entries(item)) if (!systemKeySet.has(key)) values[key] = value;
  return values;
}

/** True when the form's values differ from the ones it started from. */
export const valuesDiffer = (values: ItemValues, baseline: ItemValues): boolean => !sameValue(valuesOf(values), valuesOf(baseline));

/** A field the item's own body may carry: nested collections are written by nestedID, metadata is the system keys. */
const isBodyField = (field: SchemaField) => {
  const storage = fieldType(field.type)?.storage.kind;
  return storage === 'column';
};

/** Types whose values are uploaded files (`files` in their definition): a duplicate drops their image names. */
const isImageField = (field: SchemaField) => fieldType(field.type)?.files !== undefined;

const withoutKeys = (value: unknown, keys: readonly string[]): unknown => {
  if (Array.isArray(value)) return value.map((entry) => withoutKeys(entry, keys));
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const key of keys) delete copy[key];
  return copy;
};

/**
 * An image value (or entry of a set) whose file is chosen but not uploaded yet: it holds the
 * browser's `file`. A new item keeps such files in the form and uploads them once
 * the item is created.
 */
export const isPendingImage = (value: unknown): boolean =>
  // A value with an address is stored (a browser-only `file` beside it is only dropped).
  isRecord(value) && value.file !== undefined && value.file !== null && !value.imageURL && !value.fileURL;

/** A file to upload into a field of a just-created item, in the order the form shows them. */
export interface PendingFile {
  slug: string;
  /** An ImageRefSet: the file is appended to the set. */
  set: boolean;
  /** The browser's File (kept opaque here: the machine does no I/O). */
  file: unknown;
  altText: string;
}

/** The files the form holds that are not uploaded yet, field by field in schema order. */
export function pendingFiles(schema: readonly SchemaField[], values: ItemValues): PendingFile[] {
  const out: PendingFile[] = [];
  for (const field of schema) {
    if (!isImageField(field)) continue;
    const value = values[field.slug];
    const set = Array.isArray(value);
    for (const entry of set ? value : [value]) {
      if (!isPendingImage(entry)) continue;
      const { file, altText } = entry as Record<string, unknown>;
      out.push({ slug: field.slug, set, file, altText: typeof altText === 'string' ? altText : '' });
    }
  }
  return out;
}

/** An image value as a save sends it: chosen files not uploaded yet are left out (they go after the create). */
function imageToSend(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((entry) => !isPendingImage(entry)).map((entry) => withoutKeys(entry, browserImageKeys));
  return isPendingImage(value) ? undefined : withoutKeys(value, browserImageKeys);
}

/**
 * The values a save sends: only the schema's own column fields (no system keys, no nested
 * collections, no metadata, no keys the schema does not know), image values without the
 * browser-only file keys and without files not uploaded yet.
 */
export function valuesToSend(schema: readonly SchemaField[], values: ItemValues): ItemValues {
  const out: ItemValues = {};
  for (const field of schema) {
    if (!isBodyField(field) || !(field.slug in values)) continue;
    const value = isImageField(field) ? imageToSend(values[field.slug]) : values[field.slug];
    if (value !== undefined) out[field.slug] = value;
  }
  return out;
}

/**
 * The form after a file call answered with the item (an upload or removal on a saved item, made
 * at once, outside the form's save): the field takes `fieldValue` (what the editor shows now,
 * the answer's value when omitted) and the answer becomes its baseline; every other field the
 * person has not changed takes the answer's value; changed ones keep the person's value and
 * their baseline. The answer's version is taken only when no changed field was changed on the
 * server too: otherwise the next save names the older version and meets the conflict (409) it
 * should, so no edit is lost silently.
 */
export function rebaseOnStoredFile(
  form: { values: ItemValues; baseline: ItemValues; version: string | null },
  slug: string,
  answer: { item: ItemValues; version: string | null },
  fieldValue?: unknown,
): { values: ItemValues; baseline: ItemValues; version: string | null } {
  const server = valuesOf(answer.item);
  const values: ItemValues = {};
  const baseline: ItemValues = {};
  let clash = false;
  const keys = new Set([...Object.keys(valuesOf(form.values)), ...Object.keys(valuesOf(form.baseline)), ...Object.keys(server)]);
  for (const key of keys) {
    if (key === slug) {
      baseline[key] = server[key] ?? null;
      values[key] = fieldValue === undefined ? (server[key] ?? null) : fieldValue;
    } else if (sameValue(form.values[key], form.baseline[key])) {
      if (key in server) {
        baseline[key] = server[key];
        values[key] = server[key];
      }
    } else {
      if (key in form.values) values[key] = form.values[key];
      if (key in form.baseline) baseline[key] = form.baseline[key];
      if (!sameValue(server[key], form.baseline[key])) clash = true;
    }
  }
  return { values, baseline, version: clash ? form.version : answer.version };
}

/**
 * What Duplicate copies: the item without `_id`, the dates, `_order`, `_rank` and the
 * image names (the copy must not claim the original's stored files by name); nested items are
 * not copied (they belong to the original), nor keys the schema does not know.
 */
export function duplicateValues(schema: readonly SchemaField[], item: ItemValues): ItemValues {
  const copy: ItemValues = {};
  for (const field of schema) {
    if (!isBodyField(field) || !(field.slug in item)) continue;
    const value = structuredClone(item[field.slug]);
    copy[field.slug] = isImageField(field) ? withoutKeys(value, ['imageName', ...browserImageKeys]) : value;
  }
  return copy;
}

/** A required field left empty. */
export interface MissingField {
  slug: string;
  name: string;
}

/**
 * Required fields whose value is empty, in schema order. Emptiness is the field type's
 * (`isEmpty`), so Bool is never missing; nested collections and metadata are never checked.
 */
export function missingRequiredFields(schema: readonly SchemaField[], values: ItemValues): MissingField[] {
  return schema
    .filter((field) => field.required === true && isBodyField(field))
    // A chosen file waiting for the create fills its field (create, then upload).
    .filter((field) => (fieldType(field.type)?.isEmpty(values[field.slug]) ?? false) && !holdsPendingFile(values[field.slug]))
    .map((field) => ({ slug: field.slug, name: field.name }));
}

const holdsPendingFile = (value: unknown) => (Array.isArray(value) ? value.some(isPendingImage) : isPendingImage(value));

/** The message of a missing required field: "{field} is a required field". */
export const requiredFieldMessage = (field: MissingField): ItemMessage => ({ key: 'item.requiredField', values: { field: field.name } });

/** What a refused call tells the form, read off whatever the actor rejected with (ApiError, StaleItemError or a look-alike). */
export interface ItemFormError {
  /** 0 when no answer arrived (network, timeout); null when unknown. */
  status: number | null;
  code: string;
  detail: string;
  /** Per-field problems of a refused write (`path` starts with the slug), with the refusal's code and values when the server sent them. */
  errors: { path: string; message: string; code?: string; params?: RefusalParams }[];
  /** A stale write (409): the item as it is now, and its version. */
  current: ItemRecord | null;
  etag: string | null;
}

export function itemFormErrorOf(error: unknown): ItemFormError {
  const record = isRecord(error) ? error : {};
  const problem = isRecord(record.problem) ? record.problem : {};
  const list = Array.isArray(record.errors) ? record.errors : Array.isArray(problem.errors) ? problem.errors : [];
  const current = isRecord(record.current) ? record.current : isRecord(problem.item) ? problem.item : null;
  const status = typeof record.status === 'number' ? record.status : typeof problem.status === 'number' ? problem.status : null;
  const code = typeof record.code === 'string' ? record.code : typeof problem.code === 'string' ? problem.code : 'unknown';
  const detail = typeof record.detail === 'string' ? record.detail : typeof problem.detail === 'string' ? problem.detail : error instanceof Error ? error.message : '';
  return {
    status,
    code,
    detail,
    errors: list.filter(isRecord).map((entry) => ({
      path: String(entry.path ?? ''),
      message: String(entry.message ?? ''),
      ...(typeof entry.code === 'string' ? { code: entry.code } : {}),
      ...(isRecord(entry.params) ? { params: entry.params as RefusalParams } : {}),
    })),
    current: current as ItemRecord | null,
    etag: typeof record.etag === 'string' ? record.etag : null,
  };
}

/**
 * The version to name in the next write: the ETag, or else the item's `_lastUpdatedDate` (which
 * the server also accepts as If-Match), so a missing header never turns into an unconditional write.
 */
export const versionOf = (etag: string | null, item: ItemValues | null): string | null =>
  etag ?? (item && typeof item._lastUpdatedDate === 'string' ? `"${item._lastUpdatedDate}"` : null);

/** A write refused because the item changed since it was loaded, with the item as it is now. */
export const isStaleWrite = (error: ItemFormError) => error.status === 409 && error.current !== null;

/** The slug a server error path names (`title`, `gallery.0.altText`, `/title`). */
const slugOfPath = (path: string) => path.replace(/^\//, '').split(/[./]/)[0] ?? '';

/**
 * Per-field messages of a refused write: each error whose path names a field of the schema
 * becomes "{field} {reason}" on that field (the first one per field), the reason in the
 * catalogue's words for a refusal code the console knows. Errors naming no field are left out:
 * the toast carries the detail.
 */
export function fieldErrorsOf(schema: readonly SchemaField[], error: ItemFormError): Record<string, ItemMessage> {
  const out: Record<string, ItemMessage> = {};
  for (const entry of error.errors) {
    const slug = slugOfPath(entry.path);
    const field = schema.find((candidate) => candidate.slug === slug);
    if (!field || out[slug]) continue;
    out[slug] = { key: 'item.fieldRefused', values: { field: field.name, reason: refusalTextOf(entry) } };
  }
  return out;
}

/** Which version of a field the saved item keeps. */
export type ConflictSide = 'mine' | 'theirs';

/** One field the person's version and the server's current version disagree on. */
export interface ConflictField {
  slug: string;
  name: string;
  /** The value when the person loaded the item. */
  base: unknown;
  /** The value the person has in the form. */
  mine: unknown;
  /** The value on the server now. */
  theirs: unknown;
  /** Both changed it since it was loaded (otherwise one side only did, and its change is preselected). */
  clash: boolean;
  choice: ConflictSide;
}

/** A conflict to settle: the fields in question, and the server's current item and version. */
export interface ItemConflict {
  fields: ConflictField[];
  current: ItemRecord;
  etag: string | null;
}

/**
 * The fields where the person's values and the server's current item differ, in schema order.
 * A field only one side changed since `base` comes preselected with that side's change (so
 * nobody's edit is lost by default); a field both changed is a clash and starts on the person's
 * version. Fields where both sides agree are not listed.
 */
export function conflictFields(schema: readonly SchemaField[], base: ItemValues, mine: ItemValues, theirs: ItemValues): ConflictField[] {
  const fields: ConflictField[] = [];
  for (const field of schema) {
    if (!isBodyField(field)) continue;
    const { slug } = field;
    if (sameValue(mine[slug], theirs[slug])) continue;
    const mineChanged = !sameValue(base[slug], mine[slug]);
    const theirsChanged = !sameValue(base[slug], theirs[slug]);
    const clash = mineChanged && theirsChanged;
    fields.push({ slug, name: field.name, base: base[slug], mine: mine[slug], theirs: theirs[slug], clash, choice: mineChanged ? 'mine' : 'theirs' });
  }
  return fields;
}

/** Sets the choice of one field of a conflict. */
export const chooseSide = (fields: readonly ConflictField[], slug: string, side: ConflictSide): ConflictField[] =>
  fields.map((field) => (field.slug === slug ? { ...field, choice: side } : field));

/**
 * The values to save once the conflict is settled: the server's current values, with every
 * field chosen as "mine" taking the person's value.
 */
export function mergeConflict(conflict: ItemConflict, mine: ItemValues): ItemValues {
  const merged: ItemValues = valuesOf(conflict.current);
  for (const field of conflict.fields) {
    if (field.choice !== 'mine') continue;
    // A write changes only the keys it names: an emptied field is sent as null to clear it.
    merged[field.slug] = mine[field.slug] ?? null;
  }
  return merged;
}

/**
 * An item as read is treated as missing when it has fewer than 2 keys (the page then
 * reloads).
 */
export const isMissingItem = (item: unknown): boolean => !isRecord(item) || Object.keys(item).length < 2;
