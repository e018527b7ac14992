/**
 * ItemRef (6): links to items of another collection. Written as `[{itemRefID}]`; the server
 * checks each item exists and stores its display text beside it as `value`.
 * A field with `nestedReferenceCollectionID` also picks, under each link, items of those nested
 * collections of the linked item: `[{itemRefID, [slug]: [{itemRefID}, …]}]`, each
 * checked to be an item of that nested collection of that very linked item, and stored with its
 * display text too.
 */
import { contentLimits, fieldSlugProblem, isItemId } from '../../content.ts';
import { fail, isBlank, isPlainObject, ok } from '../support.ts';
import type { SettingRefusal } from '../setting-refusal.ts';
import type { Check, FieldType, NestedItemFound, SchemaField } from '../types.ts';

const refSchema = (required: string[]) => ({
  type: 'object',
  properties: { itemRefID: { type: 'string' }, value: { type: 'string' } },
  required,
  additionalProperties: false,
});

/** A link: the item, and (under the slugs the field lists) the nested items picked in it. */
const linkSchema = (required: string[]) => ({
  type: 'object',
  properties: { itemRefID: { type: 'string' }, value: { type: 'string' } },
  required,
  additionalProperties: { type: 'array', items: refSchema(required) },
});

/** A link as validated: the item and its nested picks by slug (ids only; values come from resolve). */
type CheckedLink = { itemRefID: string } & Record<string, string | { itemRefID: string }[]>;

/** The nested picks of one link under one slug, or why they are refused. */
function checkNestedPicks(picks: unknown, slug: string, link: string): Check<{ itemRefID: string }[]> {
  const where = { slug, link };
  if (!Array.isArray(picks)) return fail('picksShape', where);
  if (picks.length > contentLimits.itemRefsMax) return fail('picksTooMany', { ...where, max: contentLimits.itemRefsMax });
  const seen = new Set<string>();
  for (const pick of picks) {
    if (!isPlainObject(pick) || typeof pick.itemRefID !== 'string') return fail('picksShape', where);
    if (Object.keys(pick).some((key) => key !== 'itemRefID' && key !== 'value')) return fail('picksExtraKeys', where);
    if (!isItemId(pick.itemRefID)) return fail('pickNotId', { ...where, id: pick.itemRefID });
    if (seen.has(pick.itemRefID)) return fail('pickTwice', { ...where, id: pick.itemRefID });
    seen.add(pick.itemRefID);
  }
  return ok([...seen].map((itemRefID) => ({ itemRefID })));
}

const nestedSlugsOf = (field: SchemaField): readonly string[] => (Array.isArray(field.nestedReferenceCollectionID) ? field.nestedReferenceCollectionID : []);

export const itemRef: FieldType<'ItemRef'> = {
  code: 6,
  name: 'ItemRef',
  labelKey: 'fieldType.itemRef',
  icon: 'link-2',
  valueSchema: { type: ['array', 'null'], items: linkSchema(['itemRefID', 'value']) },
  writeSchema: { type: ['array', 'null'], items: linkSchema(['itemRefID']) },
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
  valueKind: 'refs',
  modifiers: ['append'],
  validate(value, field) {
    if (!Array.isArray(value)) return fail('refsShape');
    if (value.length > contentLimits.itemRefsMax) return fail('refsTooMany', { max: contentLimits.itemRefsMax });
    const nestedSlugs = nestedSlugsOf(field);
    const seen = new Set<string>();
    const links: CheckedLink[] = [];
    for (const entry of value) {
      if (!isPlainObject(entry) || typeof entry.itemRefID !== 'string') return fail('refsShape');
      if (!isItemId(entry.itemRefID)) return fail('refNotId', { id: entry.itemRefID });
      if (seen.has(entry.itemRefID)) return fail('refTwice', { id: entry.itemRefID });
      seen.add(entry.itemRefID);
      const link: CheckedLink = { itemRefID: entry.itemRefID };
      for (const [key, picks] of Object.entries(entry)) {
        if (key === 'itemRefID' || key === 'value') continue;
        if (!nestedSlugs.includes(key)) {
          return nestedSlugs.length ? fail('refExtraKeysNested', { slugs: nestedSlugs.join(', '), key }) : fail('refExtraKeys');
        }
        const checked = checkNestedPicks(picks, key, entry.itemRefID);
        if (!checked.ok) return checked;
        // An empty pick says nothing: it is not kept (the console asks for at least one).
        if (checked.value.length) link[key] = checked.value;
      }
      links.push(link);
    }
    return ok(links.length ? links : null);
  },
  isEmpty: isBlank,
  async resolve(value, field, context): Promise<Check> {
    const links = value as CheckedLink[];
    const target = field.referenceCollectionID ?? '';
    const found = await context.referencedItems(target, links.map((link) => link.itemRefID));
    const missing = links.find((link) => !found.has(link.itemRefID));
    if (missing) return fail('refMissing', { id: missing.itemRefID, collection: target });

    // Every nested pick of the write, by slug, looked up at once.
    const bySlug = new Map<string, string[]>();
    for (const link of links) {
      for (const [slug, picks] of Object.entries(link)) {
        if (slug !== 'itemRefID' && Array.isArray(picks)) bySlug.set(slug, [...(bySlug.get(slug) ?? []), ...picks.map((pick) => pick.itemRefID)]);
      }
    }
    let nested = new Map<string, Map<string, NestedItemFound>>();
    if (bySlug.size) {
      if (!context.referencedNestedItems) return fail('picksUnavailable');
      nested = await context.referencedNestedItems(target, [...bySlug].map(([slug, ids]) => ({ slug, ids })));
    }
    const resolved: Record<string, unknown>[] = [];
    for (const link of links) {
      const out: Record<string, unknown> = { itemRefID: link.itemRefID, value: found.get(link.itemRefID) ?? '' };
      for (const [slug, picks] of Object.entries(link)) {
        if (slug === 'itemRefID' || !Array.isArray(picks)) continue;
        const items = nested.get(slug);
        if (!items) return fail('picksCollectionMissing', { slug, collection: target });
        const values: { itemRefID: string; value: string }[] = [];
        for (const pick of picks) {
          const item = items.get(pick.itemRefID);
          if (!item) return fail('pickMissing', { id: pick.itemRefID, slug, collection: target });
          if (item.parentID !== link.itemRefID) return fail('pickElsewhere', { id: pick.itemRefID, slug, parent: item.parentID, link: link.itemRefID });
          values.push({ itemRefID: pick.itemRefID, value: item.value });
        }
        out[slug] = values;
      }
      resolved.push(out);
    }
    return ok(resolved);
  },
  checkSettings(field, context) {
    const problems: SettingRefusal[] = [];
    const target = field.referenceCollectionID;
    if (typeof target !== 'string' || target === '') problems.push({ path: 'referenceCollectionID', code: 'referenceMissing' });
    else if (target === context.collectionID) problems.push({ path: 'referenceCollectionID', code: 'referenceSelf' });
    else if (!context.collectionIDs.includes(target)) problems.push({ path: 'referenceCollectionID', code: 'referenceUnknown', params: { collection: target } });
    const nested = field.nestedReferenceCollectionID;
    if (nested !== undefined && (!Array.isArray(nested) || nested.length > 20 || nested.some((slug) => typeof slug !== 'string' || fieldSlugProblem(slug) !== undefined))) {
      problems.push({ path: 'nestedReferenceCollectionID', code: 'nestedReferencesInvalid' });
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
