/**
 * Content constants shared by the server and the console: collection ids,
 * reserved names, the metadata entry every schema carries, nested-id chains and size limits.
 */
import { metadataField } from './field-types/metadata/index.ts';
import { settingRefusalText, type FieldRefusal } from './field-types/setting-refusal.ts';

/** Item keys the server owns; no field may take these slugs and writes never set them. */
export const systemKeys = ['_id', '_createdDate', '_lastUpdatedDate', '_order', '_rank'] as const;
export type SystemKey = (typeof systemKeys)[number];

export { metadataField };

/** Collection ids a collection can never have: `new` is the create-collection route. */
export const reservedCollectionIds: readonly string[] = ['new'];

/** Field slugs a field can never have. */
export const reservedSlugs: readonly string[] = [...systemKeys, metadataField.slug];

/** Bounds of what people define and write. Exceeding one is a 400 naming the offending field. */
export const contentLimits = {
  collectionIdMax: 64,
  collectionNameMax: 100,
  fieldNameMax: 100,
  slugMax: 64,
  helpTextMax: 1000,
  /** Fields in one schema level (the metadata entry included). */
  fieldsPerSchema: 100,
  /** Nested collections inside nested collections: the top level is depth 0. */
  nestingDepth: 5,
  optionsPerField: 500,
  optionValueMax: 256,
  customCssMax: 100_000,
  urlMax: 2048,
  plainTextMax: 10_000,
  richTextMax: 500_000,
  linkMax: 256,
  phoneDigitsMax: 32,
  jsonBytesMax: 100_000,
  itemRefsMax: 1000,
  imageSetMax: 100,
  /** The stored form of one item, every field together, as JSON. */
  itemBytesMax: 1_000_000,
  /** Collections a project may hold. */
  collectionsPerProject: 500,
} as const;

const slugCharacters = /^[A-Za-z0-9-]+$/;

/**
 * The collection id derived from what a person typed: whitespace removed by joining the
 * words in camelCase, first letter lowercase, and only letters, digits and hyphens kept.
 * `slugify('My blog posts!')` is `myBlogPosts`.
 */
export function slugify(text: string): string {
  const words = text
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[^A-Za-z0-9-]/g, ''))
    .filter(Boolean);
  const joined = words.map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join('');
  return joined.charAt(0).toLowerCase() + joined.slice(1);
}

/** Why a collection id cannot be used, as a code (the console's message key is `collectionId.<code>`). */
export type CollectionIdProblemCode = 'empty' | 'tooLong' | 'characters' | 'case' | 'reserved';

/** The rule a collection id breaks first, or undefined when it can be used. */
export function collectionIdProblemCode(id: string): CollectionIdProblemCode | undefined {
  if (!id) return 'empty';
  if (id.length > contentLimits.collectionIdMax) return 'tooLong';
  if (!slugCharacters.test(id)) return 'characters';
  if (slugify(id) !== id) return 'case';
  if (reservedCollectionIds.includes(id)) return 'reserved';
  return undefined;
}

/** Why a collection id cannot be used, or undefined when it can. */
export function collectionIdProblem(id: string): string | undefined {
  switch (collectionIdProblemCode(id)) {
    case 'empty':
      return 'The collection ID must not be empty.';
    case 'tooLong':
      return `The collection ID must be at most ${contentLimits.collectionIdMax} characters.`;
    case 'characters':
      return 'The collection ID may contain only letters, digits and hyphens.';
    case 'case':
      return `The collection ID must start with a lowercase letter or digit (try "${slugify(id)}").`;
    case 'reserved':
      return `"${id}" is reserved.`;
    default:
      return undefined;
  }
}

/** Why a field slug cannot be used, as a setting refusal, or undefined when it can. Slugs are the keys of item values. */
export function fieldSlugRefusal(slug: string): FieldRefusal | undefined {
  if (!slug) return { code: 'slugEmpty' };
  if (slug.length > contentLimits.slugMax) return { code: 'slugTooLong', params: { max: contentLimits.slugMax } };
  if (reservedSlugs.includes(slug)) return { code: 'slugReserved', params: { slug } };
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(slug)) return { code: 'slugPattern' };
  return undefined;
}

/** The same in the catalogue's words, or undefined when the slug can be used. */
export function fieldSlugProblem(slug: string): string | undefined {
  const refusal = fieldSlugRefusal(slug);
  return refusal && settingRefusalText(refusal);
}

/**
 * The item id rule, the one place it is written (docs/public-api.md "Item ids"): 1 to 64 letters,
 * digits, `-` and `_`, compared case-sensitively. Ids the server makes are 24 hex characters (they
 * follow the rule); callers may choose others (the public API's set). `.` separates the steps of a
 * nestedID and `/` the path, so neither can be in an id.
 */
export const itemIdRule = { maxLength: 64, pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

const itemIdExpression = new RegExp(itemIdRule.pattern);

/** Whether a value is an item id by the rule above (whether such an item exists is another question). */
export const isItemId = (value: unknown): value is string => typeof value === 'string' && itemIdExpression.test(value);

/** One step of a nested-id chain: a nested collection's slug, or an item id inside it. */
export type NestedStep = { kind: 'collection'; slug: string } | { kind: 'item'; id: string };

/**
 * Parses a nestedID: the dot-joined chain after the top item that alternates a
 * nested collection's slug and an item id, `chapters.2.paragraphs.3`. A chain ending in a slug
 * addresses that nested list, one ending in an id addresses that nested item. Undefined when the
 * chain is malformed: an empty step, or an item step that is not an item id.
 */
export function parseNestedId(nestedID: string): NestedStep[] | undefined {
  if (nestedID === '') return [];
  const parts = nestedID.split('.');
  if (parts.some((part) => part === '')) return undefined;
  // An item step that breaks the id rule makes the chain malformed (a 400), not an unknown item.
  if (parts.some((part, i) => i % 2 === 1 && !isItemId(part))) return undefined;
  return parts.map((part, i) => (i % 2 === 0 ? { kind: 'collection', slug: part } : { kind: 'item', id: part }));
}

/** What an uploader accepts when its field sets no `accept`. */
export const defaultAccept = 'image/*,application/pdf';

/**
 * Schema options kept behind a development flag or a testing query parameter. They stay off in
 * the product; turn one on here to try it.
 * `sortedByDefault`: a field the item list sorts by when no sort is chosen.
 */
export const schemaOptionFlags: { readonly sortedByDefault: boolean } = {
  sortedByDefault: false,
};

/**
 * Console features that could be limited to development builds, on here by default (the Live
 * Data switch of the item list).
 */
export const contentFeatures: { readonly liveData: boolean } = {
  liveData: true,
};
