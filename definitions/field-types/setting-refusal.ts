/**
 * Why a field definition is refused, as a code with its values: a field type's own settings check
 * (`settingRefusalMessageKeys`) or the server's checks of the attributes every field has and of the
 * schema around it (`fieldRefusalMessageKeys`). The server words it from the catalogue for the
 * problem's `errors` and keeps the code and values beside the words.
 */
import { formatMessage, type MessageKey, type MessageValues } from '../messages/format.ts';

/** The catalogue key of each refusal; the text is the rule as the API states it. */
export const settingRefusalMessageKeys = {
  boundInvalid: 'fieldSetting.boundInvalid',
  minAboveMax: 'fieldSetting.minAboveMax',
  acceptInvalid: 'fieldSetting.acceptInvalid',
  referenceMissing: 'fieldSetting.referenceMissing',
  referenceSelf: 'fieldSetting.referenceSelf',
  referenceUnknown: 'fieldSetting.referenceUnknown',
  nestedReferencesInvalid: 'fieldSetting.nestedReferencesInvalid',
  defaultValueInvalid: 'fieldSetting.defaultValueInvalid',
  optionsMissing: 'fieldSetting.optionsMissing',
  optionsTooMany: 'fieldSetting.optionsTooMany',
  optionInvalid: 'fieldSetting.optionInvalid',
  optionEmpty: 'fieldSetting.optionEmpty',
  optionTooLong: 'fieldSetting.optionTooLong',
  optionIdInvalid: 'fieldSetting.optionIdInvalid',
  optionIdTaken: 'fieldSetting.optionIdTaken',
  nulCharacter: 'fieldSetting.nulCharacter',
  notUnicode: 'fieldSetting.notUnicode',
  customCssInvalid: 'fieldSetting.customCssInvalid',
  customScriptInvalid: 'fieldSetting.customScriptInvalid',
  customScriptNotWeb: 'fieldSetting.customScriptNotWeb',
  customScriptsOff: 'fieldSetting.customScriptsOff',
} as const satisfies Record<string, MessageKey>;

export type SettingRefusalCode = keyof typeof settingRefusalMessageKeys;

/**
 * The catalogue key of every refusal of a field definition: the type's own settings (above), and
 * the attributes every field has and the schema around the field, which the server checks.
 */
export const fieldRefusalMessageKeys = {
  ...settingRefusalMessageKeys,
  notAttribute: 'fieldSetting.notAttribute',
  typeMissing: 'fieldSetting.typeMissing',
  typeNotCreatable: 'fieldSetting.typeNotCreatable',
  fixedOnceSaved: 'fieldSetting.fixedOnceSaved',
  attributeMissing: 'fieldSetting.attributeMissing',
  nameTooLong: 'fieldSetting.nameTooLong',
  slugEmpty: 'fieldSetting.slugEmpty',
  slugTooLong: 'fieldSetting.slugTooLong',
  slugReserved: 'fieldSetting.slugReserved',
  slugPattern: 'fieldSetting.slugPattern',
  slugTaken: 'fieldSetting.slugTaken',
  helpTextInvalid: 'fieldSetting.helpTextInvalid',
  notTrueOrFalse: 'fieldSetting.notTrueOrFalse',
  sortInvalid: 'fieldSetting.sortInvalid',
  cannotBePrimary: 'fieldSetting.cannotBePrimary',
  cannotBeRequired: 'fieldSetting.cannotBeRequired',
  cannotBeUnique: 'fieldSetting.cannotBeUnique',
  notSettingOfType: 'fieldSetting.notSettingOfType',
  nestingTooDeep: 'fieldSetting.nestingTooDeep',
  idMismatch: 'fieldSetting.idMismatch',
  schemaNotList: 'fieldSetting.schemaNotList',
  schemaTooManyFields: 'fieldSetting.schemaTooManyFields',
  notFieldDefinition: 'fieldSetting.notFieldDefinition',
  primaryTwice: 'fieldSetting.primaryTwice',
} as const satisfies Record<string, MessageKey>;

export type FieldRefusalCode = keyof typeof fieldRefusalMessageKeys;

/** A refused setting, `path` relative to the field (`options.0.value`). */
export interface SettingRefusal {
  path: string;
  code: SettingRefusalCode;
  params?: MessageValues;
}

/** A refusal of a field definition without its path: a type's own, or one of the server's field checks. */
export interface FieldRefusal {
  code: FieldRefusalCode;
  params?: MessageValues;
}

/** The refusal in the catalogue's words ("must be at most 100 characters"). */
export const settingRefusalText = ({ code, params }: FieldRefusal): string => formatMessage(fieldRefusalMessageKeys[code], params);

/** A refused setting at `path` (from the request body) as an entry of the problem's `errors`: the words, and the code and values they come from. */
export function settingProblem(path: string, refusal: FieldRefusal): { path: string; message: string; code: FieldRefusalCode; params?: Record<string, string | number> } {
  return { path, message: settingRefusalText(refusal), code: refusal.code, ...(refusal.params ? { params: refusal.params as Record<string, string | number> } : {}) };
}

const isFieldRefusalCode = (code: unknown): code is FieldRefusalCode => typeof code === 'string' && Object.hasOwn(fieldRefusalMessageKeys, code);

/**
 * The text of an `errors` entry about a field definition as the console shows it: the catalogue's
 * words for a refusal code it knows, else the server's `message`.
 */
export function fieldRefusalTextOf(entry: { message: string; code?: unknown; params?: unknown }): string {
  if (!isFieldRefusalCode(entry.code)) return entry.message;
  const params = typeof entry.params === 'object' && entry.params !== null ? (entry.params as MessageValues) : undefined;
  return settingRefusalText({ code: entry.code, ...(params ? { params } : {}) });
}
