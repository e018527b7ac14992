/** The item form's pure rules: duplicate copy, required check, what a save sends, refusals, conflict merge. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import type { SchemaField } from '../../definitions/field-types/types.ts';
import { formatMessage, hasMessage } from '../../definitions/messages/format.ts';
import { deleteErrorMessage, itemFormMessageKeys, saveErrorMessage } from '../../machines/item-form.ts';
import {
  chooseSide,
  conflictFields,
  duplicateValues,
  fieldErrorsOf,
  isMissingItem,
  isStaleWrite,
  itemFormErrorOf,
  mergeConflict,
  missingRequiredFields,
  requiredFieldMessage,
  sameValue,
  valuesDiffer,
  valuesOf,
  valuesToSend,
  versionOf,
  type ItemConflict,
} from '../../machines/item-form-rules.ts';
import { problemError } from './support/deferred.ts';

const codeOf = (name: string) => {
  const type = fieldTypes.find((candidate) => candidate.name === name);
  if (!type) throw new Error(`no type ${name}`);
  return type.code;
};

const field = (slug: string, type: string, extra: Partial<SchemaField> = {}): SchemaField => ({ id: `id-${slug}`, name: slug[0]!.toUpperCase() + slug.slice(1), slug, type: codeOf(type), ...extra });

const schema: SchemaField[] = [
  { id: '_metadata', name: 'Metadata', slug: '_metadata', type: codeOf('Metadata') },
  field('title', 'PlainText', { required: true }),
  field('body', 'RichText'),
  field('price', 'Number', { required: true }),
  field('done', 'Bool', { required: true }),
  field('cover', 'ImageRef', { required: true }),
  field('gallery', 'ImageRefSet'),
  field('tags', 'Option'),
  field('chapters', 'NestedCollection'),
  field('extra', 'JSON'),
];

const item = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  _createdDate: '2026-01-01T00:00:00.000Z',
  _lastUpdatedDate: '2026-01-02T00:00:00.000Z',
  _order: 3,
  _rank: 'a3',
  title: 'Hello',
  body: '<p>Hi</p>',
  price: 12.5,
  done: true,
  cover: { imageURL: 'https://files/x.png', imageName: 'x.png', altText: 'An x', extension: 'png' },
  gallery: [
    { _id: 'g1', imageURL: 'https://files/a.png', imageName: 'a.png' },
    { _id: 'g2', imageURL: 'https://files/b.png', imageName: 'b.png', altText: 'B' },
  ],
  tags: { _id: 'o1', value: 'News' },
  chapters: [{ _id: 'n1' }],
  extra: { imageName: 'kept: JSON is not an image' },
  stray: 'not a field',
};

describe('duplicateValues', () => {
  it('copies the item without _id, dates, _order, _rank, image names and nested items', () => {
    expect(duplicateValues(schema, item)).toEqual({
      title: 'Hello',
      body: '<p>Hi</p>',
      price: 12.5,
      done: true,
      cover: { imageURL: 'https://files/x.png', altText: 'An x', extension: 'png' },
      gallery: [
        { _id: 'g1', imageURL: 'https://files/a.png' },
        { _id: 'g2', imageURL: 'https://files/b.png', altText: 'B' },
      ],
      tags: { _id: 'o1', value: 'News' },
      extra: { imageName: 'kept: JSON is not an image' },
    });
  });

  it('is a deep copy: editing the copy leaves the original alone', () => {
    const copy = duplicateValues(schema, item);
    (copy.gallery as { altText?: string }[])[0]!.altText = 'changed';
    (copy.tags as { value: string }).value = 'Other';
    expect(item.gallery[0]).not.toHaveProperty('altText');
    expect(item.tags.value).toBe('News');
  });

  it('leaves out fields the item does not have', () => {
    expect(duplicateValues(schema, { _id: 'x', title: 'Only' })).toEqual({ title: 'Only' });
  });
});

describe('missingRequiredFields', () => {
  it('lists empty required fields in schema order, never a Bool', () => {
    expect(missingRequiredFields(schema, {})).toEqual([
      { slug: 'title', name: 'Title' },
      { slug: 'price', name: 'Price' },
      { slug: 'cover', name: 'Cover' },
    ]);
  });

  it('uses each type’s own emptiness', () => {
    expect(missingRequiredFields(schema, { title: '', price: null, done: null, cover: { imageName: 'only a name' } }).map((f) => f.slug)).toEqual(['title', 'price', 'cover']);
    expect(missingRequiredFields(schema, { title: 'x', price: 0, done: false, cover: { fileURL: 'https://files/doc.pdf' } })).toEqual([]);
  });

  it('ignores fields that are not required, and nested collections even when marked required', () => {
    const withNested = [...schema, field('sections', 'NestedCollection', { required: true })];
    expect(missingRequiredFields(withNested, { title: 't', price: 1, cover: { imageURL: 'u' } })).toEqual([]);
  });

  it('says "{field name} is a required field"', () => {
    const [first] = missingRequiredFields(schema, {});
    const message = requiredFieldMessage(first!);
    expect(message).toEqual({ key: 'item.requiredField', values: { field: 'Title' } });
    expect(formatMessage('item.requiredField', message.values)).toBe('Title is a required field');
  });
});

describe('valuesToSend', () => {
  it('sends only the schema’s own column fields, without browser-only image keys', () => {
    const values = { ...valuesOf(item), cover: { ...item.cover, file: { name: 'x.png' }, selectedImage: 'blob:1' } };
    expect(valuesToSend(schema, values)).toEqual({
      title: 'Hello',
      body: '<p>Hi</p>',
      price: 12.5,
      done: true,
      cover: item.cover,
      gallery: item.gallery,
      tags: item.tags,
      extra: item.extra,
    });
  });
});

describe('has changes', () => {
  it('compares values structurally, ignoring key order and system keys, null equal to missing', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue('', undefined)).toBe(false);
    expect(sameValue(0, false)).toBe(false);
    expect(valuesDiffer({ title: 'a', _lastUpdatedDate: 'x' }, { title: 'a' })).toBe(false);
    expect(valuesDiffer({ title: 'a', body: null }, { title: 'a' })).toBe(false);
    expect(valuesDiffer({ title: 'b' }, { title: 'a' })).toBe(true);
  });
});

describe('reading a refusal', () => {
  it('reads an ApiError-like problem with per-field errors', () => {
    const error = Object.assign(problemError(400, 'validation_failed', 'Some values are not valid.'), {
      problem: { errors: [{ path: 'title', message: 'must be at most 3 characters' }, { path: 'gallery.0.altText', message: 'must be text' }, { path: 'nope', message: 'is not a field' }] },
    });
    const read = itemFormErrorOf(error);
    expect(read).toMatchObject({ status: 400, code: 'validation_failed', detail: 'Some values are not valid.', current: null, etag: null });
    expect(fieldErrorsOf(schema, read)).toEqual({
      title: { key: 'item.fieldRefused', values: { field: 'Title', reason: 'must be at most 3 characters' } },
      gallery: { key: 'item.fieldRefused', values: { field: 'Gallery', reason: 'must be text' } },
    });
    expect(formatMessage('item.fieldRefused', { field: 'Title', reason: 'must be at most 3 characters' })).toBe('Title must be at most 3 characters');
  });

  it('reads a stale write: the current item from StaleItemError or from the problem body', () => {
    const current = { _id: 'a', title: 'Theirs' };
    const fromClass = itemFormErrorOf(Object.assign(problemError(409, 'stale_item'), { current, etag: '"v2"' }));
    expect(fromClass).toMatchObject({ status: 409, current, etag: '"v2"' });
    expect(isStaleWrite(fromClass)).toBe(true);
    const fromBody = itemFormErrorOf({ status: 409, problem: { code: 'stale_item', item: current } });
    expect(fromBody).toMatchObject({ status: 409, code: 'stale_item', current });
    expect(isStaleWrite(fromBody)).toBe(true);
    // Another 409 (a single-item collection that already has its item) is no conflict.
    expect(isStaleWrite(itemFormErrorOf(problemError(409, 'single_item_exists')))).toBe(false);
  });

  it('reads anything thrown', () => {
    expect(itemFormErrorOf(new Error('boom'))).toMatchObject({ status: null, code: 'unknown', detail: 'boom', errors: [] });
    expect(itemFormErrorOf('text')).toMatchObject({ status: null, code: 'unknown', detail: '' });
  });

  it('picks the toast for each refusal', () => {
    const offline = itemFormErrorOf(problemError(0, 'network_error', 'Failed to fetch'));
    const refused = itemFormErrorOf(problemError(400, 'validation_failed', 'title: must be text'));
    const bare = itemFormErrorOf(problemError(500, 'internal', ''));
    expect(saveErrorMessage('create', offline)).toEqual({ key: 'item.saveFailed' });
    expect(saveErrorMessage('update', offline)).toEqual({ key: 'item.saveFailed' });
    expect(saveErrorMessage('create', refused)).toEqual({ key: 'item.createError' });
    expect(saveErrorMessage('update', refused)).toEqual({ key: 'item.updateFailedReason', values: { reason: 'title: must be text' } });
    expect(saveErrorMessage('update', bare)).toEqual({ key: 'item.updateError' });
    expect(deleteErrorMessage(refused)).toEqual({ key: 'item.deleteFailedReason', values: { reason: 'title: must be text' } });
    expect(deleteErrorMessage(offline)).toEqual({ key: 'item.deleteError' });
    expect(formatMessage('item.deleteFailedReason', { reason: 'gone' })).toBe('Could not delete item: gone');
  });

  it('uses only keys of the catalogue', () => {
    for (const key of Object.values(itemFormMessageKeys)) expect(hasMessage(key), key).toBe(true);
    expect(formatMessage('item.leaveConfirm')).toBe('Do you really want to leave? You have unsaved changes!');
    expect(formatMessage('item.deleteConfirm')).toBe("Are you sure you want to delete this item? You can't undo this action");
  });
});

describe('conflicts', () => {
  const base = { title: 'Base', body: 'Body', price: 1, done: false };

  it('lists the fields the two versions disagree on, each preselected on the side that changed it', () => {
    const mine = { ...base, title: 'Mine', price: 2 };
    const theirs = { ...base, title: 'Theirs', body: 'New body', price: 2 };
    const fields = conflictFields(schema, base, mine, theirs);
    expect(fields.map(({ slug, clash, choice }) => ({ slug, clash, choice }))).toEqual([
      { slug: 'title', clash: true, choice: 'mine' },
      { slug: 'body', clash: false, choice: 'theirs' },
    ]);
    expect(fields[0]).toMatchObject({ name: 'Title', base: 'Base', mine: 'Mine', theirs: 'Theirs' });
  });

  it('a field only the person changed keeps their change; one removed on their side is cleared', () => {
    const fields = conflictFields(schema, base, { ...base, body: null }, { ...base, title: 'Theirs' });
    expect(fields.map(({ slug, choice }) => [slug, choice])).toEqual([
      ['title', 'theirs'],
      ['body', 'mine'],
    ]);
    const conflict: ItemConflict = { fields, current: { _id: 'a', _lastUpdatedDate: 'x', ...base, title: 'Theirs' }, etag: 'v2' };
    expect(mergeConflict(conflict, { ...base, body: null })).toEqual({ ...base, title: 'Theirs', body: null });
  });

  it('merges field by field as chosen, on top of the server’s current item', () => {
    const mine = { ...base, title: 'Mine', body: 'My body' };
    const current = { _id: 'a', _rank: 'a0', ...base, title: 'Theirs', body: 'Their body', price: 5 };
    let fields = conflictFields(schema, base, mine, valuesOf(current));
    fields = chooseSide(fields, 'body', 'theirs');
    const merged = mergeConflict({ fields, current, etag: 'v2' }, mine);
    expect(merged).toEqual({ title: 'Mine', body: 'Their body', price: 5, done: false });
    expect(merged).not.toHaveProperty('_id');
  });

  it('property: all "theirs" gives the server’s values, all "mine" gives the person’s on every listed field', () => {
    const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 3 }));
    const values = fc.record({ title: value, body: value, price: value }, { requiredKeys: [] });
    fc.assert(
      fc.property(values, values, values, (baseValues, mine, theirs) => {
        const fields = conflictFields(schema, baseValues, mine, theirs);
        const current = { _id: 'x', ...theirs };
        const allTheirs = mergeConflict({ fields: fields.map((f) => ({ ...f, choice: 'theirs' as const })), current, etag: null }, mine);
        expect(valuesDiffer(allTheirs, theirs)).toBe(false);
        const allMine = mergeConflict({ fields: fields.map((f) => ({ ...f, choice: 'mine' as const })), current, etag: null }, mine);
        for (const slug of ['title', 'body', 'price']) expect(sameValue(allMine[slug], mine[slug as keyof typeof mine])).toBe(true);
        // Nothing the person changed is preselected away, and nothing listed agrees already.
        for (const f of fields) {
          expect(sameValue(f.mine, f.theirs)).toBe(false);
          if (!sameValue(f.base, f.mine)) expect(f.choice).toBe('mine');
        }
      }),
    );
  });
});

describe('versionOf', () => {
  it('names the ETag, or else the item’s last update date', () => {
    expect(versionOf('"2026-01-02T00:00:00.000Z"', item)).toBe('"2026-01-02T00:00:00.000Z"');
    expect(versionOf(null, item)).toBe('"2026-01-02T00:00:00.000Z"');
    expect(versionOf(null, { title: 'no date' })).toBeNull();
    expect(versionOf(null, null)).toBeNull();
  });
});

describe('isMissingItem', () => {
  it('treats an item with fewer than 2 keys as missing', () => {
    expect(isMissingItem(undefined)).toBe(true);
    expect(isMissingItem([])).toBe(true);
    expect(isMissingItem({ _id: 'a' })).toBe(true);
    expect(isMissingItem({ _id: 'a', title: 't' })).toBe(false);
  });
});
