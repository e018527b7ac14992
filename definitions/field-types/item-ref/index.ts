/**
 * ItemRef (6): links to items of another collection. Written as `[{itemRefID}]`; the server
 * checks each item exists and stores its display text beside it as `value` (contract §10).
 */
import { contentLimits, fieldSlugProblem } from '../../content.ts';
import { fail, isBlank, isPlainObject, ok } from '../support.ts';
import type { Check, FieldType, SettingProblem } from '../types.ts';

const itemId = /^[0-9a-f]{24}$/;

export const itemRef: FieldType = {
  code: 6,
  name: 'ItemRef',
  labelKey: 'fieldType.itemRef',
  icon: 'link-2',
  valueSchema: {
    type: ['array', 'null'],
    items: { type: 'object', properties: { itemRefID: { type: 'string' }, value: { type: 'string' } }, required: ['itemRefID', 'value'], additionalProperties: false },
  },
  writeSchema: {
    type: ['array', 'null'],
    items: { type: 'object', properties: { itemRefID: { type: 'string' }, value: { type: 'string' } }, required: ['itemRefID'], additionalProperties: false },
  },
  capabilities: { creatable: true, primary: false, required: true, unique: false, sortable: false },
  settings: ['referenceCollectionID', 'nestedReferenceCollectionID'],
  filterOperators: ['=', '!='],
  defaultOperator: '=',
  search: 'regex',
  // The GIN serves filters by linked ids (containment); the trigram index the search of display values.
  storage: {
    kind: 'column',
    column: 'jsonb',
    indexes: [
      { kind: 'gin', on: { of: 'value' } },
      { kind: 'trigram', on: { of: 'members', member: 'value' } },
    ],
  },
  validate(value) {
    if (!Array.isArray(value)) return fail('must be a list of {"itemRefID": "…"}');
    if (value.length > contentLimits.itemRefsMax) return fail(`may link at most ${contentLimits.itemRefsMax} items`);
    const seen = new Set<string>();
    for (const entry of value) {
      if (!isPlainObject(entry) || typeof entry.itemRefID !== 'string') return fail('must be a list of {"itemRefID": "…"}');
      if (Object.keys(entry).some((key) => key !== 'itemRefID' && key !== 'value')) return fail('entries hold only itemRefID (and value)');
      if (!itemId.test(entry.itemRefID)) return fail(`"${entry.itemRefID}" is not an item id`);
      if (seen.has(entry.itemRefID)) return fail(`links item ${entry.itemRefID} twice`);
      seen.add(entry.itemRefID);
    }
    return ok(value.length ? [...seen].map((itemRefID) => ({ itemRefID })) : null);
  },
  isEmpty: isBlank,
  async resolve(value, field, context): Promise<Check> {
    const refs = value as { itemRefID: string }[];
    const target = field.referenceCollectionID ?? '';
    const found = await context.referencedItems(target, refs.map((ref) => ref.itemRefID));
    const missing = refs.find((ref) => !found.has(ref.itemRefID));
    if (missing) return fail(`links item ${missing.itemRefID}, which is not in collection "${target}"`);
    return ok(refs.map((ref) => ({ itemRefID: ref.itemRefID, value: found.get(ref.itemRefID) ?? '' })));
  },
  checkSettings(field, context) {
    const problems: SettingProblem[] = [];
    const target = field.referenceCollectionID;
    if (typeof target !== 'string' || target === '') problems.push({ path: 'referenceCollectionID', message: 'must name the collection the items come from' });
    else if (target === context.collectionID) problems.push({ path: 'referenceCollectionID', message: 'must name another collection than this one' });
    else if (!context.collectionIDs.includes(target)) problems.push({ path: 'referenceCollectionID', message: `there is no collection "${target}" in this project` });
    const nested = field.nestedReferenceCollectionID;
    if (nested !== undefined && (!Array.isArray(nested) || nested.length > 20 || nested.some((slug) => typeof slug !== 'string' || fieldSlugProblem(slug) !== undefined))) {
      problems.push({ path: 'nestedReferenceCollectionID', message: 'must be a list of nested collection slugs' });
    }
    return { field, problems };
  },
  csv: {
    sqlForm: { of: 'members', member: 'itemRefID', separator: ',' },
    toCell: (value) => (Array.isArray(value) ? value.map((ref) => (isPlainObject(ref) ? String(ref.itemRefID) : '')).join(',') : ''),
    fromCell(cell) {
      const ids = cell
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      return ok(ids.length ? ids.map((itemRefID) => ({ itemRefID })) : null);
    },
  },
  display: (value) => (Array.isArray(value) ? value.map((ref) => (isPlainObject(ref) ? String(ref.value ?? '') : '')).join(', ') : ''),
};
