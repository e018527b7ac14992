/**
 * Checks a field definition as people send it and turns it into the stored
 * schema field. What depends on the type comes from the registry: its capabilities, the settings
 * it takes and its own settings check. Problems carry paths relative to the request body, and a
 * refusal code with its values beside the catalogue's words (definitions/field-types/setting-refusal.ts).
 */
import { contentLimits, fieldSlugRefusal, metadataField } from '../../definitions/content.ts';
import { fieldType, typeSettings, type SchemaField, type SettingProblem, type SettingsContext, type TypeSetting } from '../../definitions/field-types/index.ts';
import { unstorableTextCode } from '../../definitions/field-types/support.ts';
import { settingProblem, type FieldRefusal } from '../../definitions/field-types/setting-refusal.ts';
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

function checkName(value: unknown): FieldRefusal | undefined {
  if (typeof value !== 'string' || value.trim() === '') return { code: 'attributeMissing' };
  if (value.trim().length > contentLimits.fieldNameMax) return { code: 'nameTooLong', params: { max: contentLimits.fieldNameMax } };
  const code = unstorableTextCode(value);
  return code && { code };
}

/**
 * Checks the attributes every type shares and the type's own settings, and normalises them.
 * `previous` is the saved field when this is an update (its type and slug then cannot change).
 */
function prepare(input: Record<string, unknown>, env: FieldEnvironment, previous?: SchemaField): PreparedField {
  const problems: SettingProblem[] = [];
  const at = (path: string, refusal: FieldRefusal) => problems.push(settingProblem(env.prefix + path, refusal));

  for (const key of Object.keys(input)) {
    if (!(commonAttributes as readonly string[]).includes(key) && !(typeSettings as readonly string[]).includes(key)) at(key, { code: 'notAttribute' });
  }

  const typeCode = previous ? (input.type ?? previous.type) : input.type;
  const type = typeof typeCode === 'number' ? fieldType(typeCode) : undefined;
  if (!type || (!previous && !type.capabilities.creatable)) {
    at('type', typeof typeCode === 'number' ? { code: 'typeNotCreatable', params: { type: typeCode } } : { code: 'typeMissing' });
    return { field: { id: previous?.id ?? '', name: '', slug: '', type: Number(typeCode) }, problems };
  }
  if (previous && typeCode !== previous.type) {
    at('type', { code: 'fixedOnceSaved' });
    return { field: previous, problems };
  }

  const name = input.name ?? previous?.name;
  const nameProblem = checkName(name);
  if (nameProblem) at('name', nameProblem);

  const slug = input.slug ?? previous?.slug;
  if (typeof slug !== 'string') at('slug', { code: 'attributeMissing' });
  else if (previous && slug !== previous.slug) at('slug', { code: 'fixedOnceSaved' });
  else {
    const slugProblem = fieldSlugRefusal(slug);
    if (slugProblem) at('slug', slugProblem);
    else if (env.siblings.some((other) => other.slug === slug)) at('slug', { code: 'slugTaken', params: { slug } });
  }

  const field: SchemaField = {
    id: previous?.id ?? newId(),
    name: typeof name === 'string' ? name.trim() : '',
    slug: typeof slug === 'string' ? slug : '',
    type: type.code,
  };

  const helpText = input.helpText === undefined ? previous?.helpText : input.helpText;
  if (helpText !== undefined && helpText !== null) {
    if (typeof helpText !== 'string' || helpText.length > contentLimits.helpTextMax || unstorableTextCode(helpText)) {
      at('helpText', { code: 'helpTextInvalid', params: { max: contentLimits.helpTextMax } });
    } else if (helpText !== '') field.helpText = helpText;
  }
  for (const key of booleanAttributes) {
    const value = input[key] === undefined ? previous?.[key] : input[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') at(key, { code: 'notTrueOrFalse' });
    else field[key] = value;
  }
  const sort = input.sort === undefined ? previous?.sort : input.sort;
  if (sort !== undefined && sort !== null) {
    if (typeof sort !== 'number' || !Number.isFinite(sort)) at('sort', { code: 'sortInvalid' });
    else field.sort = sort;
  }

  // A primary field is always required; some types can be neither.
  if (field.primaryField && !type.capabilities.primary) at('primaryField', { code: 'cannotBePrimary', params: { type: type.name } });
  else if (field.primaryField) field.required = true;
  if (field.required && !type.capabilities.required) at('required', { code: 'cannotBeRequired', params: { type: type.name } });
  if (field.unique && !type.capabilities.unique) at('unique', { code: 'cannotBeUnique', params: { type: type.name } });

  for (const key of typeSettings) {
    if (key === 'nestedCollectionSchema') continue;
    const value = input[key] === undefined ? previous?.[key] : input[key];
    if (blank(value) && key !== 'options') continue;
    if (!type.settings.includes(key)) {
      if (!blank(value)) at(key, { code: 'notSettingOfType', params: { type: type.name } });
      continue;
    }
    (field as unknown as Record<string, unknown>)[key] = value;
  }
  if (type.checkSettings) {
    const checked = type.checkSettings(field, previous ? { ...env.context, previous } : env.context);
    for (const { path, ...refusal } of checked.problems) at(path, refusal);
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
      problems.push(settingProblem(`${env.prefix}type`, { code: 'nestingTooDeep', params: { max: contentLimits.nestingDepth } }));
    }
    const nested = prepareSchema(input.nestedCollectionSchema, { ...env, depth: env.depth + 1, prefix: `${env.prefix}nestedCollectionSchema.`, siblings: [] });
    problems.push(...nested.problems);
    field.nestedCollectionSchema = nested.fields;
  } else if (!blank(input.nestedCollectionSchema)) {
    problems.push(settingProblem(`${env.prefix}nestedCollectionSchema`, { code: 'notSettingOfType', params: { type: type?.name ?? 'these' } }));
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
  if (givenId !== undefined && givenId !== previous.id) prepared.problems.push(settingProblem(`${env.prefix}id`, { code: 'idMismatch' }));
  if (previous.nestedCollectionSchema) prepared.field.nestedCollectionSchema = previous.nestedCollectionSchema;
  return prepared;
}

/**
 * A whole new schema level (a collection's initial schema, or a new nested collection's): every
 * field new, slugs unique among themselves, the metadata entry appended.
 */
export function prepareSchema(input: unknown, env: FieldEnvironment): { fields: SchemaField[]; problems: SettingProblem[] } {
  if (input === undefined || input === null) return { fields: [{ ...metadataField }], problems: [] };
  if (!Array.isArray(input)) return { fields: [], problems: [settingProblem(env.prefix.replace(/\.$/, ''), { code: 'schemaNotList' })] };
  const entries = input.filter((entry) => !(isObject(entry) && entry.type === metadataField.type));
  if (entries.length + 1 > contentLimits.fieldsPerSchema) {
    return { fields: [], problems: [settingProblem(env.prefix.replace(/\.$/, ''), { code: 'schemaTooManyFields', params: { max: contentLimits.fieldsPerSchema - 1 } })] };
  }
  const fields: SchemaField[] = [];
  const problems: SettingProblem[] = [];
  entries.forEach((entry, i) => {
    if (!isObject(entry)) {
      problems.push(settingProblem(`${env.prefix}${i}`, { code: 'notFieldDefinition' }));
      return;
    }
    const prepared = prepareNewField(entry, { ...env, prefix: `${env.prefix}${i}.`, siblings: fields });
    problems.push(...prepared.problems);
    fields.push(prepared.field);
  });
  const primaries = fields.filter((f) => f.primaryField);
  if (primaries.length > 1) problems.push(settingProblem(`${env.prefix}${fields.indexOf(primaries[1]!)}.primaryField`, { code: 'primaryTwice' }));
  return { fields: [...fields, { ...metadataField }], problems };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
