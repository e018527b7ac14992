/**
 * The list's filter control: which fields may be filtered, which
 * operators each takes (from the field-type registry), the defaults a chosen field brings, and
 * the `filter` parameter the state becomes (encoding: docs/content-storage.md "Listing and searching items").
 */
import { fieldType, type FilterOperator, type SchemaField } from '../../../definitions/field-types/index.ts';

/** A linked item picked in an ItemRef filter. */
export interface RefPick {
  itemRefID: string;
  value: string;
}

export interface FilterState {
  /** The field's slug; '' when none is chosen. */
  key: string;
  operator: FilterOperator | '';
  /** Text as typed; dates as a `datetime-local` value. */
  value: string;
  refs: readonly RefPick[];
}

export const emptyFilter: FilterState = { key: '', operator: '', value: '', refs: [] };

/** Operators the console offers: every operator of the type except map areas (the map layout's). */
export function operatorsFor(field: SchemaField | undefined): FilterOperator[] {
  const type = field && fieldType(field.type);
  return type ? type.filterOperators.filter((operator) => operator !== 'within') : [];
}

/** Fields the filter offers: those whose type allows at least one operator. */
export function filterableFields(schema: readonly SchemaField[]): SchemaField[] {
  return schema.filter((field) => operatorsFor(field).length > 0);
}

const storedAs = (field: SchemaField | undefined) => {
  const storage = field && fieldType(field.type)?.storage;
  return storage?.kind === 'column' ? storage.column : undefined;
};

/** True for a field whose values are true/false: such a filter starts at `= true`. */
export const isBooleanField = (field: SchemaField | undefined) => storedAs(field) === 'boolean';
/** True for a field holding numbers: its filter value is typed as a number. */
export const isNumberField = (field: SchemaField | undefined) => storedAs(field) === 'double precision';
/** True for a field holding date-times: its filter value is sent as epoch seconds. */
export const isDateField = (field: SchemaField | undefined) => storedAs(field) === 'timestamptz';
/** True for a field linking items of another collection: its filter picks items. */
export const isReferenceField = (field: SchemaField | undefined) => (field ? (fieldType(field.type)?.settings.includes('referenceCollectionID') ?? false) : false);
/** True for a field whose value is one of its listed choices: its filter offers them. */
export const isChoiceField = (field: SchemaField | undefined) => (field ? (fieldType(field.type)?.settings.includes('options') ?? false) : false);

/** The state after choosing a field: the type's default operator; Bool starts at `= true`. */
export function chooseField(schema: readonly SchemaField[], key: string): FilterState {
  const field = schema.find((candidate) => candidate.slug === key);
  if (!field) return emptyFilter;
  const operators = operatorsFor(field);
  const preferred = fieldType(field.type)?.defaultOperator;
  const operator = preferred && operators.includes(preferred) ? preferred : (operators[0] ?? '');
  return { key, operator, value: isBooleanField(field) ? 'true' : '', refs: [] };
}

const regexSpecials = /[.*+?^${}()|[\]\\]/g;

/** "Contains" matches the typed text literally. */
export const escapeRegex = (text: string) => text.replace(regexSpecials, '\\$&');

/** Seconds since the epoch of a `datetime-local` value read in the browser's time zone. */
export function epochSeconds(localDateTime: string): number | undefined {
  const ms = new Date(localDateTime).getTime();
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

export interface FilterOutcome {
  /** The `filter` parameter; undefined when nothing filters. */
  filter: string | undefined;
  /** A value was given without a field and an operator ("Please select a field and operator"). */
  missingFieldOrOperator: boolean;
}

/** The `filter` parameter of a state: one Filter entity `{fieldName, key, operator, filterValue | refFilterVal}`. */
export function toFilterParam(schema: readonly SchemaField[], state: FilterState): FilterOutcome {
  const hasValue = state.value.trim() !== '' || state.refs.length > 0;
  const field = schema.find((candidate) => candidate.slug === state.key);
  if (!field || state.operator === '') return { filter: undefined, missingFieldOrOperator: hasValue };
  if (!hasValue) return { filter: undefined, missingFieldOrOperator: false };
  const base = { fieldName: field.name, key: field.slug, operator: state.operator };
  if (isReferenceField(field)) {
    if (state.refs.length === 0) return { filter: undefined, missingFieldOrOperator: false };
    return { filter: JSON.stringify({ ...base, refFilterVal: state.refs.map((ref) => ({ itemRefID: ref.itemRefID, value: ref.value })) }), missingFieldOrOperator: false };
  }
  let filterValue: string | number | boolean = state.value.trim();
  if (isDateField(field)) {
    const seconds = epochSeconds(state.value);
    if (seconds === undefined) return { filter: undefined, missingFieldOrOperator: false };
    filterValue = seconds;
  } else if (isBooleanField(field)) {
    filterValue = state.value === 'true';
  } else if (state.operator === 'regex') {
    filterValue = escapeRegex(filterValue);
  }
  return { filter: JSON.stringify({ ...base, filterValue }), missingFieldOrOperator: false };
}
