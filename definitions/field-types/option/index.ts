/**
 * Option (7): one choice from the field's list. Written as `{_id}` and stored as `{_id, value}`
 * with the choice's current text.
 */
import { contentLimits } from '../../content.ts';
import { fail, isPlainObject, ok, unstorableTextCode } from '../support.ts';
import type { SettingRefusal } from '../setting-refusal.ts';
import type { FieldType, OptionChoice } from '../types.ts';

const optionId = /^[A-Za-z0-9_-]{1,64}$/;

export const option: FieldType<'Option'> = {
  code: 7,
  name: 'Option',
  labelKey: 'fieldType.option',
  icon: 'list',
  valueSchema: {
    anyOf: [
      { type: 'object', properties: { _id: { type: 'string' }, value: { type: 'string' } }, required: ['_id', 'value'], additionalProperties: false },
      { type: 'null' },
    ],
  },
  writeSchema: {
    anyOf: [{ type: 'object', properties: { _id: { type: 'string' }, value: { type: 'string' } }, required: ['_id'], additionalProperties: false }, { type: 'null' }],
  },
  capabilities: { creatable: true, primary: true, required: true, unique: false, sortable: false, followsDirection: true },
  settings: ['options'],
  filterOperators: ['=', '!='],
  defaultOperator: '=',
  storage: { kind: 'column', column: 'jsonb', indexes: [{ kind: 'btree', on: { of: 'member', member: '_id' } }] },
  valueKind: 'option',
  layoutUses: ['kanbanColumns'],
  validate(value, field) {
    if (!isPlainObject(value) || typeof value._id !== 'string') return fail('optionShape');
    if (Object.keys(value).some((key) => key !== '_id' && key !== 'value')) return fail('optionExtraKeys');
    const choice = (field.options ?? []).find((candidate) => candidate._id === value._id);
    if (!choice) return fail('optionUnknown', { id: value._id });
    return ok({ _id: choice._id, value: choice.value });
  },
  isEmpty: (value) => value === null || value === undefined,
  checkSettings(field, context) {
    const problems: SettingRefusal[] = [];
    const given = field.options;
    if (!Array.isArray(given) || given.length === 0) {
      return { field, problems: [{ path: 'options', code: 'optionsMissing' }] };
    }
    if (given.length > contentLimits.optionsPerField) problems.push({ path: 'options', code: 'optionsTooMany', params: { max: contentLimits.optionsPerField } });
    const seen = new Set<string>();
    const options: OptionChoice[] = [];
    given.forEach((entry: unknown, i) => {
      if (!isPlainObject(entry)) return problems.push({ path: `options.${i}`, code: 'optionInvalid' });
      const text = typeof entry.value === 'string' ? entry.value.trim() : undefined;
      if (!text) return problems.push({ path: `options.${i}.value`, code: 'optionEmpty' });
      const bad = unstorableTextCode(text);
      if (bad) return problems.push({ path: `options.${i}.value`, code: bad });
      if (text.length > contentLimits.optionValueMax) return problems.push({ path: `options.${i}.value`, code: 'optionTooLong', params: { max: contentLimits.optionValueMax } });
      const id = entry._id === undefined || entry._id === '' ? context.newId() : entry._id;
      if (typeof id !== 'string' || !optionId.test(id)) return problems.push({ path: `options.${i}._id`, code: 'optionIdInvalid' });
      if (seen.has(id)) return problems.push({ path: `options.${i}._id`, code: 'optionIdTaken' });
      seen.add(id);
      options.push({ _id: id, value: text });
      return undefined;
    });
    return { field: { ...field, options }, problems };
  },
  csv: {
    sqlForm: { of: 'member', member: 'value' },
    toCell: (value) => (isPlainObject(value) && typeof value.value === 'string' ? value.value : ''),
    fromCell(cell, field) {
      const text = cell.trim();
      if (text === '') return ok(null);
      const choice = (field.options ?? []).find((candidate) => candidate.value === text) ?? (field.options ?? []).find((candidate) => candidate._id === text);
      return choice ? ok({ _id: choice._id }) : fail('optionCellUnknown', { text });
    },
  },
  display: (value) => (isPlainObject(value) && typeof value.value === 'string' ? value.value : ''),
};
