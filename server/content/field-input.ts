/**
 * Checks a field definition as people send it and turns it into the stored
 * schema field. What depends on the type comes from the registry: its capabilities, the settings
 * it takes and its own settings check. Problems carry paths relative to the request body.
 */
import { contentLimits, fieldSlugProblem, metadataField } from '../../definitions/content.ts';
import { fieldType, typeSettings, type SchemaField, type SettingProblem, type SettingsContext, type TypeSetting } from '../../definitions/field-types/index.ts';
import { unstorableText } from '../../definitions/field-types/support.ts';
import { settingRefusalMessageKeys } from '../../definitions/field-types/setting-refusal.ts';
import { formatMessage } from '../../definitions/messages/format.ts';
import { newId } from '../lib/ids.ts';

const commonAttributes = ['id', 'name', 'slug', 'type', 'helpText', 'required', 'primaryField', 'unique', 'visible', 'sort', 'sortedByDefault'] as const;
const booleanAttributes = ['required', 'primaryField', 'unique', 'visible', 'sortedByDefault'] as const;

export interface FieldEnvironment {
  /** The other fields of the level the field belongs to (siblings; never the field itself). */
  siblings: readonly SchemaField[];
  /** Depth of that level: 0 at the top. */
  depth: number;
  context: SettingsContext;
  /** Prefix of problem paths (`schema.2.`). */
  prefix: string;
}

export interface PreparedField {
  field: SchemaField;
  problems: SettingProblem[];
}

/** A settings value that says "not set" (the console may send every attribute with a blank). */
const blank = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

function checkName(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return 'is required';
  if (value.trim().length > contentLimits.fieldNameMax) return `must be at most ${contentLimits.fieldNameMax} characters`;
  return unstorableText(value);
}

/**
 * Checks the attributes every type shares and the type's own settings, and normalises them.
 * `previous` is the saved field when this is an update (its type and slug then cannot change).
 */
function prepare(input: Record<string, unknown>, env: FieldEnvironment, previous?: SchemaField): PreparedField {
  const problems: SettingProblem[] = [];
  const at = (path: string, message: string) => problems.push({ path: env.prefix + path, message });

  for (const key of Object.keys(input)) {
    if (!(commonAttributes as readonly string[]).includes(key) && !(typeSettings as readonly string[]).includes(key)) at(key, 'is not a field attribute');
  }

  const typeCode = previous ? (input.type ?? previous.type) : input.type;
  const type = typeof typeCode === 'number' ? fieldType(typeCode) : undefined;
  if (!type || (!previous && !type.capabilities.creatable)) {
    at('type', typeof typeCode === 'number' ? `${typeCode} is not a field type that can be created` : 'is required: a field type code');
    return { field: { id: previous?.id ?? '', name: '', slug: '', type: Number(typeCode) }, problems };
  }
  if (previous && typeCode !== previous.type) {
    at('type', 'cannot be changed once the field is saved');
    return { field: previous, problems };
  }

  const name = input.name ?? previous?.name;
  const nameProblem = checkName(name);
  if (nameProblem) at('name', nameProblem);

  const slug = input.slug ?? previous?.slug;
  if (typeof slug !== 'string') at('slug', 'is required');
  else if (previous && slug !== previous.slug) at('slug', 'cannot be changed once the field is saved');
  else {
    const slugProblem = fieldSlugProblem(slug);
    if (slugProblem) at('slug', slugProblem);
    else if (env.siblings.some((other) => other.slug === slug)) at('slug', `"${slug}" is already a field of this schema`);
  }

  const field: SchemaField = {
    id: previous?.id ?? newId(),
    name: typeof name === 'string' ? name.trim() : '',
    slug: typeof slug === 'string' ? slug : '',
    type: type.code,
  };

  const helpText = input.helpText === undefined ? previous?.helpText : input.helpText;
  if (helpText !== undefined && helpText !== null) {
    if (typeof helpText !== 'string' || helpText.length > contentLimits.helpTextMax || unstorableText(helpText)) {
      at('helpText', `must be text of at most ${contentLimits.helpTextMax} characters`);
    } else if (helpText !== '') field.helpText = helpText;
  }
  for (const key of booleanAttributes) {
    const value = input[key] === undefined ? previous?.[key] : input[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') at(key, 'must be true or false');
    else field[key] = value;
  }
  const sort = input.sort === undefined ? previous?.sort : input.sort;
  if (sort !== undefined && sort !== null) {
    if (typeof sort !== 'number' || !Number.isFinite(sort)) at('sort', 'must be a number');
    else field.sort = sort;
  }

  // A primary field is always required; some types can be neither.
  if (field.primaryField && !type.capabilities.primary) at('primaryField', `a ${type.name} field cannot be the primary field`);
  else if (field.primaryField) field.required = true;
  if (field.required && !type.capabilities.required) at('required', `a ${type.name} field cannot be required`);
  if (field.unique && !type.capabilities.unique) at('unique', `a ${type.name} field cannot be unique`);

  for (const key of typeSettings) {
    if (key === 'nestedCollectionSchema') continue;
    const value = input[key] === undefined ? previous?.[key] : input[key];
    if (blank(value) && key !== 'options') continue;
    if (!type.settings.includes(key)) {
      if (!blank(value)) at(key, `is not a setting of ${type.name} fields`);
      continue;
    }
    (field as unknown as Record<string, unknown>)[key] = value;
  }
  if (type.checkSettings) {
    const checked = type.checkSettings(field, previous ? { ...env.context, previous } : env.context);
    for (const refusal of checked.problems) at(refusal.path, formatMessage(settingRefusalMessageKeys[refusal.code], refusal.params));
    Object.assign(field, checked.field);
  }
  return { field, problems };
}

/** A new field, with (for a nested collection) its nested schema and fresh ids throughout. */
export function prepareNewField(input: Record<string, unknown>, env: FieldEnvironment): PreparedField {
  const prepared = prepare(input, env);
  const { field, problems } = prepared;
  const type = fieldType(field.type);
  if (type?.storage.kind === 'table') {
    if (env.depth + 1 > contentLimits.nestingDepth) {
      problems.push({ path: `${env.prefix}type`, message: `nested collections may be at most ${contentLimits.nestingDepth} levels deep` });
    }
    const nested = prepareSchema(input.nestedCollectionSchema, { ...env, depth: env.depth + 1, prefix: `${env.prefix}nestedCollectionSchema.`, siblings: [] });
    problems.push(...nested.problems);
    field.nestedCollectionSchema = nested.fields;
  } else if (!blank(input.nestedCollectionSchema)) {
    problems.push({ path: `${env.prefix}nestedCollectionSchema`, message: `is not a setting of ${type?.name ?? 'these'} fields` });
  }
  return prepared;
}

/**
 * A changed field: `input` holds the attributes to change. A nested collection's inner schema is
 * changed through its own fields, so `nestedCollectionSchema` here is left as it was.
 */
export function prepareFieldUpdate(previous: SchemaField, input: Record<string, unknown>, env: FieldEnvironment): PreparedField {
  const { nestedCollectionSchema: _ignored, id: givenId, ...rest } = input;
  const prepared = prepare(rest, env, previous);
  if (givenId !== undefined && givenId !== previous.id) prepared.problems.push({ path: `${env.prefix}id`, message: 'does not match the field being changed' });
  if (previous.nestedCollectionSchema) prepared.field.nestedCollectionSchema = previous.nestedCollectionSchema;
  return prepared;
}

/**
 * A whole new schema level (a collection's initial schema, or a new nested collection's): every
 * field new, slugs unique among themselves, the metadata entry appended.
 */
export function prepareSchema(input: unknown, env: FieldEnvironment): { fields: SchemaField[]; problems: SettingProblem[] } {
  if (input === undefined || input === null) return { fields: [{ ...metadataField }], problems: [] };
  if (!Array.isArray(input)) return { fields: [], problems: [{ path: env.prefix.replace(/\.$/, ''), message: 'must be a list of fields' }] };
  const entries = input.filter((entry) => !(isObject(entry) && entry.type === metadataField.type));
  if (entries.length + 1 > contentLimits.fieldsPerSchema) {
    return { fields: [], problems: [{ path: env.prefix.replace(/\.$/, ''), message: `may hold at most ${contentLimits.fieldsPerSchema - 1} fields` }] };
  }
  const fields: SchemaField[] = [];
  const problems: SettingProblem[] = [];
  entries.forEach((entry, i) => {
    if (!isObject(entry)) {
      problems.push({ path: `${env.prefix}${i}`, message: 'must be a field definition' });
      return;
    }
    const prepared = prepareNewField(entry, { ...env, prefix: `${env.prefix}${i}.`, siblings: fields });
    problems.push(...prepared.problems);
    fields.push(prepared.field);
  });
  const primaries = fields.filter((f) => f.primaryField);
  if (primaries.length > 1) problems.push({ path: `${env.prefix}${fields.indexOf(primaries[1]!)}.primaryField`, message: 'only one field can be the primary field' });
  return { fields: [...fields, { ...metadataField }], problems };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
