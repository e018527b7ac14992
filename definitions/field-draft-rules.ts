/**
 * The rules a field being defined must meet before it can be saved. Pure and
 * shared: the field-draft machine guards its save on them and the console screen shows the same
 * problems. Everything type-specific is read from the field-type registry, never from a type code.
 */
import { contentLimits, reservedSlugs, slugify } from './content.ts';
import { fieldType, typeSettings } from './field-types/index.ts';
import type { SettingRefusal, SettingRefusalCode } from './field-types/setting-refusal.ts';
import type { OptionChoice, SchemaField, TypeSetting } from './field-types/types.ts';

/** What a person edits while defining a field: a schema field without its id. */
export type FieldDraft = Omit<SchemaField, 'id'> & { required: boolean; primaryField: boolean };

/** The attributes changed by one CHANGE of the draft (name, slug and type have their own events). */
export type FieldDraftChanges = Partial<Omit<FieldDraft, 'name' | 'slug' | 'type'>>;

/** Why a draft cannot be saved yet; each code is also the tail of a message key `fieldDraft.<code>`. */
export type FieldDraftProblemCode =
  | 'typeUnknown'
  | 'nameMissing'
  | 'nameTooLong'
  | 'slugMissing'
  | 'slugReserved'
  | 'slugInvalid'
  | 'slugTaken'
  | 'optionsMissing'
  | 'referenceMissing'
  | 'referenceSelf'
  | 'referenceUnknown'
  | 'primaryNotAllowed'
  | 'requiredNotAllowed'
  | 'uniqueNotAllowed'
  | 'primaryNeedsRequired'
  | 'minMaxInvalid';

/** One problem, `path` naming the attribute (as the server's problem `errors` do). */
export interface FieldDraftProblem {
  path: string;
  code: FieldDraftProblemCode;
}

/** What the rules consult besides the draft. */
export interface FieldDraftRulesContext {
  /** Slugs of the other fields of the same schema level (never the field's own). */
  siblingSlugs: readonly string[];
  /** The collection the field belongs to: an item reference must name another one. */
  collectionID?: string;
  /** Every collection of the project, when known: an item reference must name one of them. */
  collectionIDs?: readonly string[];
}

const slugPattern = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The slug a name suggests while the slug has not been edited by hand. */
export const slugFromName = (name: string): string => slugify(name);

/** A fresh draft of a field of type `type` (the picker's choice). */
export function newFieldDraft(type: number): FieldDraft {
  return { type, name: '', slug: '', helpText: '', required: false, primaryField: false, unique: false, visible: true };
}

/** The editable draft of a saved field. */
export function draftOfField(field: SchemaField): FieldDraft {
  const { id: _id, ...rest } = field;
  return { ...rest, required: field.required ?? false, primaryField: field.primaryField ?? false };
}

const hasSetting = (type: number, setting: TypeSetting) => fieldType(type)?.settings.includes(setting) ?? false;

/** Option texts as they will be sent: trimmed, empty ones left out. */
export const nonEmptyOptions = (options: readonly OptionChoice[] | undefined): OptionChoice[] =>
  (options ?? []).map((option) => ({ ...option, value: option.value.trim() })).filter((option) => option.value !== '');

/**
 * Applies changes and keeps the draft consistent: primary forces required, and
 * attributes the type cannot take are switched off.
 */
export function applyDraftChanges(draft: FieldDraft, changes: FieldDraftChanges): FieldDraft {
  const next: FieldDraft = { ...draft, ...changes };
  const capabilities = fieldType(next.type)?.capabilities;
  if (capabilities && !capabilities.primary) next.primaryField = false;
  if (capabilities && !capabilities.unique) next.unique = false;
  if (next.primaryField) next.required = true;
  if (capabilities && !capabilities.required) next.required = false;
  return next;
}


/** The draft with another type: settings the new type does not take are dropped. */
export function changeDraftType(draft: FieldDraft, type: number): FieldDraft {
  const next: FieldDraft = { ...draft, type };
  for (const setting of typeSettings) if (!hasSetting(type, setting)) delete next[setting];
  return applyDraftChanges(next, {});
}

/**
 * The draft problem each setting refusal of the field types shows as, and the attribute it stands
 * beside (both bounds beside the minimum, which draws them together); null where the server's
 * answer says it (a rule the form's editors cannot break, or one only the server can check).
 */
const draftProblemOfRefusal: Readonly<Record<SettingRefusalCode, FieldDraftProblem | null>> = {
  optionsMissing: { path: 'options', code: 'optionsMissing' },
  referenceMissing: { path: 'referenceCollectionID', code: 'referenceMissing' },
  referenceSelf: { path: 'referenceCollectionID', code: 'referenceSelf' },
  referenceUnknown: { path: 'referenceCollectionID', code: 'referenceUnknown' },
  boundInvalid: { path: 'min', code: 'minMaxInvalid' },
  minAboveMax: { path: 'min', code: 'minMaxInvalid' },
  acceptInvalid: null,
  nestedReferencesInvalid: null,
  defaultValueInvalid: null,
  optionsTooMany: null,
  optionInvalid: null,
  optionEmpty: null,
  optionTooLong: null,
  optionIdInvalid: null,
  optionIdTaken: null,
  nulCharacter: null,
  notUnicode: null,
  customCssInvalid: null,
  customScriptInvalid: null,
  customScriptNotWeb: null,
  customScriptsOff: null,
};

/**
 * The type's own settings check run on what would be sent. What the draft's context does not know
 * (the collection, the project's other collections) is taken as fine: the server checks it.
 */
function settingRefusals(draft: FieldDraft, context: FieldDraftRulesContext): readonly SettingRefusal[] {
  const type = fieldType(draft.type);
  if (!type?.checkSettings) return [];
  const field = { id: '', ...fieldInputOf(draft) } as SchemaField;
  const target = field.referenceCollectionID;
  let made = 0;
  return type.checkSettings(field, {
    collectionID: context.collectionID ?? '',
    collectionIDs: context.collectionIDs ?? (typeof target === 'string' ? [target] : []),
    newId: () => `draft-${(made += 1)}`,
    scriptsEnabled: true,
  }).problems;
}

/** Every reason the draft cannot be saved; empty when it can. */
export function fieldDraftProblems(draft: FieldDraft, context: FieldDraftRulesContext): FieldDraftProblem[] {
  const problems: FieldDraftProblem[] = [];
  const add = (path: string, code: FieldDraftProblemCode) => problems.push({ path, code });
  const type = fieldType(draft.type);
  if (!type) add('type', 'typeUnknown');

  const name = draft.name.trim();
  if (name === '') add('name', 'nameMissing');
  else if (name.length > contentLimits.fieldNameMax) add('name', 'nameTooLong');

  const slug = draft.slug;
  if (slug === '') add('slug', 'slugMissing');
  else if (reservedSlugs.includes(slug)) add('slug', 'slugReserved');
  else if (slug.length > contentLimits.slugMax || !slugPattern.test(slug)) add('slug', 'slugInvalid');
  else if (context.siblingSlugs.includes(slug)) add('slug', 'slugTaken');

  if (type) {
    for (const refusal of settingRefusals(draft, context)) {
      const shown = draftProblemOfRefusal[refusal.code];
      if (shown && !problems.some((problem) => problem.code === shown.code)) add(shown.path, shown.code);
    }
    if (draft.primaryField && !type.capabilities.primary) add('primaryField', 'primaryNotAllowed');
    if (draft.required && !type.capabilities.required) add('required', 'requiredNotAllowed');
    if (draft.unique && !type.capabilities.unique) add('unique', 'uniqueNotAllowed');
  }
  if (draft.primaryField && !draft.required) add('required', 'primaryNeedsRequired');
  return problems;
}

/** True when the tick (save) can be pressed. */
export const isFieldDraftValid = (draft: FieldDraft, context: FieldDraftRulesContext) => fieldDraftProblems(draft, context).length === 0;

/**
 * The body sent to the server: name trimmed, option texts trimmed and empty ones left out, and
 * only the settings the type takes. `forUpdate` leaves out type and slug, which never change.
 */
export function fieldInputOf(draft: FieldDraft, options: { forUpdate?: boolean } = {}): Partial<Omit<SchemaField, 'id'>> {
  const input: Partial<Omit<SchemaField, 'id'>> = { ...draft, name: draft.name.trim() };
  for (const setting of typeSettings) if (!hasSetting(draft.type, setting)) delete input[setting];
  if (input.options !== undefined) input.options = nonEmptyOptions(input.options);
  if (options.forUpdate) {
    delete input.type;
    delete input.slug;
    // An update keeps what it does not name: a setting emptied in the form is sent as null to clear it.
    const cleared = input as Record<string, unknown>;
    for (const setting of typeSettings) {
      if (setting !== 'nestedCollectionSchema' && hasSetting(draft.type, setting) && cleared[setting] === undefined) cleared[setting] = null;
    }
    if (cleared.helpText === undefined) cleared.helpText = null;
  }
  return input;
}

/** The message key of each problem; texts live in definitions/messages/en.json. */
export const fieldDraftMessageKeys: Readonly<Record<FieldDraftProblemCode, `fieldDraft.${FieldDraftProblemCode}`>> = {
  typeUnknown: 'fieldDraft.typeUnknown',
  nameMissing: 'fieldDraft.nameMissing',
  nameTooLong: 'fieldDraft.nameTooLong',
  slugMissing: 'fieldDraft.slugMissing',
  slugReserved: 'fieldDraft.slugReserved',
  slugInvalid: 'fieldDraft.slugInvalid',
  slugTaken: 'fieldDraft.slugTaken',
  optionsMissing: 'fieldDraft.optionsMissing',
  referenceMissing: 'fieldDraft.referenceMissing',
  referenceSelf: 'fieldDraft.referenceSelf',
  referenceUnknown: 'fieldDraft.referenceUnknown',
  primaryNotAllowed: 'fieldDraft.primaryNotAllowed',
  requiredNotAllowed: 'fieldDraft.requiredNotAllowed',
  uniqueNotAllowed: 'fieldDraft.uniqueNotAllowed',
  primaryNeedsRequired: 'fieldDraft.primaryNeedsRequired',
  minMaxInvalid: 'fieldDraft.minMaxInvalid',
};
