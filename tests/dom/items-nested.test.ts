/** Nested lists: nestedID walking, breadcrumbs cut to 10 characters plus "..." (the fold's crumbs: tests/dom/item-fold.test.tsx). */
import { describe, expect, it } from 'vitest';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { truncateLabel } from '../../machines/nested-navigation-rules.ts';
import { nestedFields, slugPath } from '../../src/screens/items/nested-path.ts';

const schema: SchemaField[] = [
  { id: 't', name: 'Title', slug: 'title', type: 1 },
  {
    id: 'c',
    name: 'Chapters of the book',
    slug: 'chapters',
    type: 12,
    nestedCollectionSchema: [{ id: 'p', name: 'Paragraphs', slug: 'paragraphs', type: 12, nestedCollectionSchema: [{ id: 'x', name: 'Text', slug: 'text', type: 1 }] }],
  },
];
const chapter = 'b'.repeat(24);

describe('nested paths', () => {
  it('cuts labels to 10 characters plus "..."', () => {
    expect(truncateLabel('Chapters')).toBe('Chapters');
    expect(truncateLabel('0123456789')).toBe('0123456789');
    expect(truncateLabel('Chapters of the book')).toBe('Chapters o...');
  });

  it('walks the nested collection fields of a nestedID and keeps layouts per slug path', () => {
    expect(nestedFields(schema, `chapters.${chapter}.paragraphs`)?.map((field) => field.slug)).toEqual(['chapters', 'paragraphs']);
    expect(nestedFields(schema, 'nope')).toBeUndefined();
    expect(slugPath(`chapters.${chapter}.paragraphs`)).toBe('chapters.paragraphs');
  });
});
