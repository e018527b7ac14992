/**
 * Why a field type refuses a setting of a field definition, as a code with its values: the server
 * words it from the catalogue for the problem's `errors`, the console shows its own text for it.
 */
import type { MessageKey, MessageValues } from '../messages/format.ts';

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

/** A refused setting, `path` relative to the field (`options.0.value`). */
export interface SettingRefusal {
  path: string;
  code: SettingRefusalCode;
  params?: MessageValues;
}
