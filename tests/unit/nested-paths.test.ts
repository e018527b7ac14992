/**
 * The public API's nested paths become the official client's nestedID form before routing
 * (server/public/nested-paths.ts); anything else is left alone.
 */
import { describe, expect, it } from 'vitest';
import { rewriteNestedPath } from '../../server/public/nested-paths.ts';

const at = '/api/public/collection/books/items/b1';

describe('rewriteNestedPath', () => {
  it('turns each nested path into the path and nestedID chain the client sends', () => {
    expect(rewriteNestedPath(`${at}/nested/chapters/items`)).toBe(`${at}?nestedID=chapters`);
    expect(rewriteNestedPath(`${at}/nested/chapters/items/c1`)).toBe(`${at}?nestedID=chapters.c1`);
    expect(rewriteNestedPath(`${at}/nested/chapters/items/c1/nested/paragraphs/items`)).toBe(`${at}?nestedID=chapters.c1.paragraphs`);
    expect(rewriteNestedPath(`${at}/nested/chapters/items/c1/nested/paragraphs/items/p1`)).toBe(`${at}?nestedID=chapters.c1.paragraphs.p1`);
    expect(rewriteNestedPath(`${at}/nested/chapters/items/c1/image?imageSlug=cover`)).toBe(`${at}/image?imageSlug=cover&nestedID=chapters.c1`);
    expect(rewriteNestedPath(`${at}/nested/chapters/items/c1/field/words?increment=2`)).toBe(`${at}/field/words?increment=2&nestedID=chapters.c1`);
    expect(rewriteNestedPath(`${at}/nested/chapters/items/c1/bagelUsers`)).toBe(`${at}/bagelUsers?nestedID=chapters.c1`);
    expect(rewriteNestedPath(`${at}/nested/chapters/items?sort=heading&perPage=2`)).toBe(`${at}?sort=heading&perPage=2&nestedID=chapters`);
  });

  it('leaves every other address as it came', () => {
    for (const url of [
      `${at}`,
      `${at}?nestedID=chapters`,
      `${at}/image?imageSlug=x&nestedID=`,
      '/api/public/collection/books/items',
      '/api/public/collection/books/nested/chapters/items',
      `${at}/nested/chapters`,
      `${at}/nested/chapters/things`,
      `${at}/nested//items`,
      `${at}/nested/chapters/items/`,
      `${at}/nested/chapters/items/c1//field`,
      '/api/public/collection//items/b1/nested/chapters/items',
      '/api/organization/o/project/p/collection/books/items/b1/nested/chapters/items',
      '/nested/x/items',
    ]) {
      expect(rewriteNestedPath(url), url).toBe(url);
    }
  });
});
