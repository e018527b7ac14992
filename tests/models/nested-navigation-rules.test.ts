/** Nested navigation: the pure rules (nestedID, route, stack from a route, breadcrumbs) and the machine's limits. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { contentLimits, parseNestedId } from '../../definitions/content.ts';
import { nestedNavigationMachine } from '../../machines/nested-navigation.ts';
import {
  breadcrumbsOf,
  listNestedIdOf,
  maxNestedLevels,
  nestedIdOf,
  routeOf,
  stackFromRoute,
  truncateLabel,
  type NavLevel,
} from '../../machines/nested-navigation-rules.ts';

const level = (collection: string, itemID: string | null, label = collection): NavLevel => ({ collection, label, itemID });

describe('nestedID and route of a stack', () => {
  it('alternates slugs and item ids below the top item, as parseNestedId reads it', () => {
    const stack = [level('books', 'b1'), level('chapters', 'c2'), level('paragraphs', null)];
    expect(nestedIdOf(stack)).toBe('chapters.c2.paragraphs');
    expect(listNestedIdOf(stack)).toBe('chapters.c2.paragraphs');
    expect(parseNestedId(nestedIdOf(stack))).toEqual([
      { kind: 'collection', slug: 'chapters' },
      { kind: 'item', id: 'c2' },
      { kind: 'collection', slug: 'paragraphs' },
    ]);
    const withItem = [...stack.slice(0, 2), level('paragraphs', 'p3')];
    expect(nestedIdOf(withItem)).toBe('chapters.c2.paragraphs.p3');
    expect(listNestedIdOf(withItem)).toBe('chapters.c2.paragraphs');
    expect(nestedIdOf([level('books', 'b1')])).toBe('');
    expect(nestedIdOf([])).toBe('');
  });

  it('names the routes', () => {
    expect(routeOf([])).toBeNull();
    expect(routeOf([level('books', null)])).toEqual({ name: 'viewCollection', params: { collectionID: 'books' } });
    expect(routeOf([level('books', 'b1')])).toEqual({ name: 'viewItem', params: { collectionID: 'books', itemID: 'b1' } });
    expect(routeOf([level('books', 'b1'), level('chapters', null)])).toEqual({
      name: 'viewNestedCollection',
      params: { collectionID: 'books', itemID: 'b1', nestedID: 'chapters' },
    });
    expect(routeOf([level('books', 'b1'), level('chapters', 'c2')])).toEqual({
      name: 'nestedItem',
      params: { collectionID: 'books', itemID: 'b1', nestedID: 'chapters', collectionNestedID: 'c2' },
    });
  });
});

describe('stackFromRoute', () => {
  it('reads each route back', () => {
    expect(stackFromRoute({ collectionID: 'books', label: 'Books' })).toEqual([level('books', null, 'Books')]);
    expect(stackFromRoute({ collectionID: 'books', itemID: 'b1', nestedID: 'chapters.c2.paragraphs' })).toEqual([
      level('books', 'b1'),
      level('chapters', 'c2'),
      level('paragraphs', null),
    ]);
    expect(stackFromRoute({ collectionID: 'books', itemID: 'b1', nestedID: 'chapters', collectionNestedID: 'c2' })).toEqual([level('books', 'b1'), level('chapters', 'c2')]);
  });

  it('refuses what is no chain', () => {
    expect(stackFromRoute({ collectionID: 'books', itemID: 'b1', nestedID: 'chapters..x' })).toBeUndefined();
    expect(stackFromRoute({ collectionID: 'books', nestedID: 'chapters' })).toBeUndefined();
    expect(stackFromRoute({ collectionID: 'books', itemID: 'b1', collectionNestedID: 'c2' })).toBeUndefined();
    expect(stackFromRoute({ collectionID: 'books', itemID: 'b1', nestedID: 'chapters.c2', collectionNestedID: 'p3' })).toBeUndefined();
    const tooDeep = Array.from({ length: maxNestedLevels + 1 }, (_, i) => `s${i}.i${i}`).join('.');
    expect(stackFromRoute({ collectionID: 'books', itemID: 'b1', nestedID: tooDeep })).toBeUndefined();
  });

  it('property: a stack’s route reads back as the same stack', () => {
    const id = fc.stringMatching(/^[a-z0-9]{1,6}$/);
    const stacks = fc
      .tuple(id, fc.array(fc.tuple(id, id), { maxLength: maxNestedLevels - 1 }), fc.option(id, { nil: null }), fc.boolean())
      .map(([top, middle, lastItem, nested]) => {
        if (!nested) return [level(top, lastItem)];
        const levels = [level(top, 'root'), ...middle.map(([slug, item]) => level(slug, item))];
        return [...levels, level('last', lastItem)];
      });
    fc.assert(
      fc.property(stacks, (stack) => {
        const route = routeOf(stack)!;
        const params = route.params as Record<string, string>;
        const read = stackFromRoute({
          collectionID: params.collectionID!,
          itemID: params.itemID ?? null,
          ...(params.nestedID !== undefined ? { nestedID: params.nestedID } : {}),
          ...(params.collectionNestedID !== undefined ? { collectionNestedID: params.collectionNestedID } : {}),
        });
        expect(read).toEqual(stack);
      }),
    );
  });
});

describe('breadcrumbs', () => {
  it('cuts labels to 10 characters plus "..." (counting characters, not UTF-16 units)', () => {
    expect(truncateLabel('Short')).toBe('Short');
    expect(truncateLabel('Exactly 10')).toBe('Exactly 10');
    expect(truncateLabel('Eleven char')).toBe('Eleven cha...');
    expect(truncateLabel('🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎')).toBe('🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎...');
  });

  it('lists each level and its open item, the last one current', () => {
    const crumbs = breadcrumbsOf([
      { collection: 'books', label: 'Books of the year', itemID: 'b1', itemLabel: 'A tale of two cities' },
      { collection: 'chapters', label: 'Chapters', itemID: null },
    ]);
    expect(crumbs).toEqual([
      { kind: 'collection', label: 'Books of t...', fullLabel: 'Books of the year', depth: 0, current: false },
      { kind: 'item', label: 'A tale of ...', fullLabel: 'A tale of two cities', depth: 0, current: false },
      { kind: 'collection', label: 'Chapters', fullLabel: 'Chapters', depth: 1, current: true },
    ]);
  });
});

describe('nested navigation machine: limits', () => {
  const start = () => {
    const actor = createActor(nestedNavigationMachine).start();
    actor.send({ type: 'START', collectionID: 'books', label: 'Books', itemID: 'b1' });
    return actor;
  };

  it('opens nested collections only under an open item, up to the nesting limit', () => {
    const actor = start();
    for (let depth = 1; depth <= contentLimits.nestingDepth; depth += 1) {
      actor.send({ type: 'OPEN_COLLECTION', slug: `s${depth}`, label: `S${depth}` });
      expect(actor.getSnapshot().context.stack).toHaveLength(depth + 1);
      // No item open yet at the new level: nothing can be nested under it.
      expect(actor.getSnapshot().can({ type: 'OPEN_COLLECTION', slug: 'x', label: 'X' })).toBe(false);
      actor.send({ type: 'OPEN_ITEM', itemID: `i${depth}` });
    }
    expect(actor.getSnapshot().can({ type: 'OPEN_COLLECTION', slug: 'deeper', label: 'Deeper' })).toBe(false);
    expect(actor.getSnapshot().context.nestedID).toBe('s1.i1.s2.i2.s3.i3.s4.i4.s5.i5');
  });

  it('refuses a slug that would break the chain, and a route that is no chain', () => {
    const actor = start();
    expect(actor.getSnapshot().can({ type: 'OPEN_COLLECTION', slug: 'a.b', label: 'A' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'OPEN_COLLECTION', slug: '', label: 'A' })).toBe(false);
    actor.send({ type: 'SYNC_ROUTE', route: { collectionID: 'books', itemID: 'b1', nestedID: 'chapters..x' } });
    expect(actor.getSnapshot().context.stack).toEqual([{ collection: 'books', label: 'Books', itemID: 'b1' }]);
  });

  it('re-opening the item already open at a level keeps the levels below it; another item drops them', () => {
    const actor = start();
    actor.send({ type: 'OPEN_COLLECTION', slug: 'chapters', label: 'Chapters' });
    actor.send({ type: 'OPEN_ITEM', itemID: 'b1', depth: 0 });
    expect(actor.getSnapshot().context.nestedID).toBe('chapters');
    actor.send({ type: 'OPEN_ITEM', itemID: 'b2', depth: 0 });
    expect(actor.getSnapshot().context.stack.map((l) => [l.collection, l.itemID])).toEqual([['books', 'b2']]);
    expect(actor.getSnapshot().value).toEqual({ active: 'top' });
  });

  it('closing the top item closes everything under it; nothing opens at an unknown depth', () => {
    const actor = start();
    actor.send({ type: 'OPEN_COLLECTION', slug: 'chapters', label: 'Chapters' });
    actor.send({ type: 'OPEN_ITEM', itemID: 'c1' });
    expect(actor.getSnapshot().can({ type: 'OPEN_ITEM', itemID: 'x', depth: 5 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'RETURN_TO', depth: -1 })).toBe(false);
    actor.send({ type: 'CLOSE_ITEM', depth: 0 });
    expect(actor.getSnapshot().context.route).toEqual({ name: 'viewCollection', params: { collectionID: 'books' } });
    expect(actor.getSnapshot().can({ type: 'CLOSE' })).toBe(false);
  });

  it('opens a nested collection of an item higher up: the levels below it pop, the new one is pushed', () => {
    const actor = start();
    actor.send({ type: 'OPEN_COLLECTION', slug: 'chapters', label: 'Chapters' });
    actor.send({ type: 'OPEN_ITEM', itemID: 'c1' });
    actor.send({ type: 'OPEN_COLLECTION', slug: 'paragraphs', label: 'Paragraphs' });
    // The book's form beside the fold opens its Notes: chapters and paragraphs go.
    actor.send({ type: 'OPEN_COLLECTION', slug: 'notes', label: 'Notes', depth: 0 });
    expect(actor.getSnapshot().context.stack.map((l) => [l.collection, l.itemID])).toEqual([
      ['books', 'b1'],
      ['notes', null],
    ]);
    expect(actor.getSnapshot().context.route).toEqual({ name: 'viewNestedCollection', params: { collectionID: 'books', itemID: 'b1', nestedID: 'notes' } });
    // Not under a level without an open item, nor at a level that does not exist.
    expect(actor.getSnapshot().can({ type: 'OPEN_COLLECTION', slug: 'x', label: 'X', depth: 1 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'OPEN_COLLECTION', slug: 'x', label: 'X', depth: 2 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'OPEN_COLLECTION', slug: 'x', label: 'X', depth: -1 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'OPEN_COLLECTION', slug: 'x', label: 'X', depth: 0 })).toBe(true);
  });
});
