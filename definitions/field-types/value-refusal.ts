/**
 * Why a field type (or the item write around it) refuses a value, as a code with its values. The
 * server words it from the catalogue for the problem's `errors` (and keeps the code and values
 * beside the words); the console words it from the same catalogue, so one text serves both.
 */
import { formatMessage, type MessageKey } from '../messages/format.ts';

/** The catalogue key of each refusal; the text is the rule as the API states it. */
export const valueRefusalMessageKeys = {
  notText: 'fieldValue.notText',
  nulCharacter: 'fieldValue.nulCharacter',
  notUnicode: 'fieldValue.notUnicode',
  tooShort: 'fieldValue.tooShort',
  tooLong: 'fieldValue.tooLong',
  notNumber: 'fieldValue.notNumber',
  notFinite: 'fieldValue.notFinite',
  notBool: 'fieldValue.notBool',
  phoneTooLong: 'fieldValue.phoneTooLong',
  phoneNoDigits: 'fieldValue.phoneNoDigits',
  spaces: 'fieldValue.spaces',
  controlCharacters: 'fieldValue.controlCharacters',
  linkScheme: 'fieldValue.linkScheme',
  dateNotText: 'fieldValue.dateNotText',
  dateFormat: 'fieldValue.dateFormat',
  dateNotCalendar: 'fieldValue.dateNotCalendar',
  dateNotTime: 'fieldValue.dateNotTime',
  dateBadOffset: 'fieldValue.dateBadOffset',
  dateInvalid: 'fieldValue.dateInvalid',
  dateOutOfRange: 'fieldValue.dateOutOfRange',
  jsonNotValue: 'fieldValue.jsonNotValue',
  jsonTooLarge: 'fieldValue.jsonTooLarge',
  jsonTooDeep: 'fieldValue.jsonTooDeep',
  jsonInvalid: 'fieldValue.jsonInvalid',
  serverKept: 'fieldValue.serverKept',
  nestedWrittenApart: 'fieldValue.nestedWrittenApart',
  imageNotObject: 'fieldValue.imageNotObject',
  unknownKeys: 'fieldValue.unknownKeys',
  notWebAddress: 'fieldValue.notWebAddress',
  notWebOrFilesAddress: 'fieldValue.notWebOrFilesAddress',
  imagesNotList: 'fieldValue.imagesNotList',
  imagesTooMany: 'fieldValue.imagesTooMany',
  geoNotObject: 'fieldValue.geoNotObject',
  geoExtraKeys: 'fieldValue.geoExtraKeys',
  latRange: 'fieldValue.latRange',
  lngRange: 'fieldValue.lngRange',
  geoCell: 'fieldValue.geoCell',
  optionShape: 'fieldValue.optionShape',
  optionExtraKeys: 'fieldValue.optionExtraKeys',
  optionUnknown: 'fieldValue.optionUnknown',
  optionCellUnknown: 'fieldValue.optionCellUnknown',
  refsShape: 'fieldValue.refsShape',
  refsTooMany: 'fieldValue.refsTooMany',
  refNotId: 'fieldValue.refNotId',
  refTwice: 'fieldValue.refTwice',
  refExtraKeys: 'fieldValue.refExtraKeys',
  refExtraKeysNested: 'fieldValue.refExtraKeysNested',
  picksShape: 'fieldValue.picksShape',
  picksTooMany: 'fieldValue.picksTooMany',
  picksExtraKeys: 'fieldValue.picksExtraKeys',
  pickNotId: 'fieldValue.pickNotId',
  pickTwice: 'fieldValue.pickTwice',
  refMissing: 'fieldValue.refMissing',
  picksUnavailable: 'fieldValue.picksUnavailable',
  picksCollectionMissing: 'fieldValue.picksCollectionMissing',
  pickMissing: 'fieldValue.pickMissing',
  pickElsewhere: 'fieldValue.pickElsewhere',
  notAField: 'fieldValue.notAField',
  notANestedField: 'fieldValue.notANestedField',
  notWritable: 'fieldValue.notWritable',
  // The console's own text for a required field left empty is the same rule: one text for both.
  required: 'item.requiredField',
  itemTooLarge: 'fieldValue.itemTooLarge',
  notUnique: 'fieldValue.notUnique',
} as const satisfies Record<string, MessageKey>;

export type ValueRefusalCode = keyof typeof valueRefusalMessageKeys;

/** Values a refusal's text names; they travel on the wire as the `errors` entry's `params`. */
export type RefusalParams = Record<string, string | number>;

/**
 * A refused value. Two params place the refusal inside the value, and word it as a prefix: `member`
 * (the key of an object's member: "imageURL must be text") and `image` (the 1-based position in a
 * list of images: "image 2 imageURL must be text").
 */
export interface ValueRefusal {
  code: ValueRefusalCode;
  params?: RefusalParams;
}

export const isValueRefusalCode = (code: unknown): code is ValueRefusalCode =>
  typeof code === 'string' && Object.prototype.hasOwnProperty.call(valueRefusalMessageKeys, code);

/** The refusal in the catalogue's words ("must be at most 256 characters"). */
export function valueRefusalText({ code, params }: ValueRefusal): string {
  let text = formatMessage(valueRefusalMessageKeys[code], params);
  if (params?.member !== undefined) text = formatMessage('fieldValue.ofMember', { member: params.member, reason: text });
  if (params?.image !== undefined) text = formatMessage('fieldValue.ofImage', { image: params.image, reason: text });
  return text;
}

/** A refused value of the field at `path`, as an entry of the problem's `errors`: the words, and the code and values they come from. */
export interface ValueProblem {
  path: string;
  message: string;
  code: ValueRefusalCode;
  params?: RefusalParams;
}

export function valueProblem(path: string, refusal: ValueRefusal): ValueProblem {
  return { path, message: valueRefusalText(refusal), code: refusal.code, ...(refusal.params ? { params: refusal.params } : {}) };
}

/**
 * The text of an `errors` entry as the console shows it: the catalogue's words for a refusal code
 * it knows, else the server's `message`.
 */
export function refusalTextOf(entry: { message: string; code?: unknown; params?: unknown }): string {
  if (!isValueRefusalCode(entry.code)) return entry.message;
  const params = typeof entry.params === 'object' && entry.params !== null ? (entry.params as RefusalParams) : undefined;
  return valueRefusalText({ code: entry.code, ...(params ? { params } : {}) });
}

