/**
 * Model-based test of nested navigation: the model is a plain stack of
 * (collection, active item) levels; opening a nested collection pushes, closing pops, returning to
 * a level (a breadcrumb) pops the deeper ones, opening another item at a level drops what hung
 * under the previous one, opening a nested collection of the top item (its form beside the fold)
 * pops what was open under it and pushes the new level. After every step the real machine must hold the same stack, the
 * nestedID (parseNestedId's chain), the route, and the breadcrumbs (10 characters plus "...").
 * Every shortest path of a model two nested levels deep with items a and b is replayed, and every
 * simple path of a model one level deep with item a only (with both items its simple paths run
 * into the millions).
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { parseNestedId } from '../../definitions/content.ts';
import { nestedNavigationMachine } from '../../machines/nested-navigation.ts';
import type { NavRoute } from '../../machines/nested-navigation-rules.ts';

interface Level {
  collection: string;
  itemID: string | null;
}

interface ModelContext {
  stack: Level[];
}

const TOP = 'posts';
const TOP_LABEL = 'Posts of the blog';
const slugAt = (depth: number) => `level${depth}`;
const labelAt = (depth: number) => (depth === 0 ? TOP_LABEL : `Nested level ${depth}`);
const itemLabel = (id: string) => `Item ${id} with a long title`;

const deepest = (c: ModelContext) => c.stack[c.stack.length - 1]!;
const withDeepestItem = (c: ModelContext, itemID: string | null) => [...c.stack.slice(0, -1), { ...deepest(c), itemID }];

/** The nestedID worked out by hand: slug, item, slug, item … below the top item. */
const expectedNestedId = (stack: Level[]) =>
  stack
    .slice(1)
    .flatMap((level) => (level.itemID === null ? [level.collection] : [level.collection, level.itemID]))
    .join('.');

/** The route worked out by hand from the route names. */
function expectedRoute(stack: Level[]): NavRoute {
  const top = stack[0]!;
  if (top.itemID === null) return { name: 'viewCollection', params: { collectionID: TOP } };
  if (stack.length === 1) return { name: 'viewItem', params: { collectionID: TOP, itemID: top.itemID } };
  const last = stack[stack.length - 1]!;
  const full = expectedNestedId(stack);
  if (last.itemID === null) return { name: 'viewNestedCollection', params: { collectionID: TOP, itemID: top.itemID, nestedID: full } };
  return { name: 'nestedItem', params: { collectionID: TOP, itemID: top.itemID, nestedID: full.slice(0, -(last.itemID.length + 1)), collectionNestedID: last.itemID } };
}

/** The route the address bar gives in SYNC_ROUTE: posts / a / level1.b.level2 */
const syncedStack: Level[] = [
  { collection: TOP, itemID: 'a' },
  { collection: slugAt(1), itemID: 'b' },
  { collection: slugAt(2), itemID: null },
];

function makeModel(maxNested: number, restartAnywhere: boolean, withB: boolean) {
  return setup({
    types: {
      context: {} as ModelContext,
      events: {} as
        | { type: 'START' }
        | { type: 'START_WITH_ITEM' }
        | { type: 'SYNC_ROUTE' }
        | { type: 'OPEN_A' }
        | { type: 'OPEN_B' }
        | { type: 'OPEN_TOP_B' }
        | { type: 'CLOSE_ITEM' }
        | { type: 'OPEN_COLLECTION' }
        | { type: 'OPEN_COLLECTION_OF_TOP' }
        | { type: 'CLOSE' }
        | { type: 'RETURN_TO_TOP_ITEM' }
        | { type: 'RETURN_TO_TOP_LIST' }
        | { type: 'RETURN_TO_LEVEL_1' },
    },
    guards: {
      isNested: ({ context }) => context.stack.length > 1,
      deepestIsNotA: ({ context }) => deepest(context).itemID !== 'a',
      deepestIsNotB: ({ context }) => withB && deepest(context).itemID !== 'b',
      topIsNotB: ({ context }) => withB && context.stack[0]!.itemID !== 'b',
      hasDeepestItem: ({ context }) => deepest(context).itemID !== null,
      canOpen: ({ context }) => deepest(context).itemID !== null && context.stack.length - 1 < maxNested,
      hasLevel1: ({ context }) => context.stack.length > 1,
      // A new start can come at any time; the simple-path model starts once, or its paths explode.
      mayStart: ({ context }) => restartAnywhere || context.stack.length === 0,
      maySync: ({ context }) => (restartAnywhere || context.stack.length === 0) && syncedStack.length - 1 <= maxNested,
    },
  }).createMachine({
    id: 'nestedNavigationModel',
    context: { stack: [] },
    initial: 'idle',
    on: {
      START: { guard: 'mayStart', target: '.deciding', actions: assign({ stack: [{ collection: TOP, itemID: null }] }) },
      START_WITH_ITEM: { guard: 'mayStart', target: '.deciding', actions: assign({ stack: [{ collection: TOP, itemID: 'a' }] }) },
      SYNC_ROUTE: { guard: 'maySync', target: '.deciding', actions: assign({ stack: syncedStack }) },
    },
    states: {
      idle: {},
      deciding: { always: [{ guard: 'isNested', target: 'nested' }, { target: 'top' }] },
      top: {
        on: {
          OPEN_A: { guard: 'deepestIsNotA', target: 'deciding', actions: assign({ stack: ({ context }) => withDeepestItem(context, 'a') }) },
          OPEN_B: { guard: 'deepestIsNotB', target: 'deciding', actions: assign({ stack: ({ context }) => withDeepestItem(context, 'b') }) },
          CLOSE_ITEM: { guard: 'hasDeepestItem', target: 'deciding', actions: assign({ stack: ({ context }) => withDeepestItem(context, null) }) },
          OPEN_COLLECTION: {
            guard: 'canOpen',
            target: 'deciding',
            actions: assign({ stack: ({ context }) => [...context.stack, { collection: slugAt(context.stack.length), itemID: null }] }),
          },
          RETURN_TO_TOP_LIST: { target: 'deciding', actions: assign({ stack: [{ collection: TOP, itemID: null }] }) },
        },
      },
      nested: {
        on: {
          OPEN_A: { guard: 'deepestIsNotA', target: 'deciding', actions: assign({ stack: ({ context }) => withDeepestItem(context, 'a') }) },
          OPEN_B: { guard: 'deepestIsNotB', target: 'deciding', actions: assign({ stack: ({ context }) => withDeepestItem(context, 'b') }) },
          // Another top item: what hung under the previous one is dropped.
          OPEN_TOP_B: { guard: 'topIsNotB', target: 'deciding', actions: assign({ stack: [{ collection: TOP, itemID: 'b' }] }) },
          CLOSE_ITEM: { guard: 'hasDeepestItem', target: 'deciding', actions: assign({ stack: ({ context }) => withDeepestItem(context, null) }) },
          OPEN_COLLECTION: {
            guard: 'canOpen',
            target: 'deciding',
            actions: assign({ stack: ({ context }) => [...context.stack, { collection: slugAt(context.stack.length), itemID: null }] }),
          },
          // The top item's form stays beside the fold: its Open pops every level and pushes level 1 again.
          OPEN_COLLECTION_OF_TOP: { target: 'deciding', actions: assign({ stack: ({ context }) => [context.stack[0]!, { collection: slugAt(1), itemID: null }] }) },
          CLOSE: { target: 'deciding', actions: assign({ stack: ({ context }) => context.stack.slice(0, -1) }) },
          RETURN_TO_TOP_ITEM: { target: 'deciding', actions: assign({ stack: ({ context }) => context.stack.slice(0, 1) }) },
          RETURN_TO_TOP_LIST: { target: 'deciding', actions: assign({ stack: [{ collection: TOP, itemID: null }] }) },
          RETURN_TO_LEVEL_1: { guard: 'hasLevel1', target: 'deciding', actions: assign({ stack: ({ context }) => context.stack.slice(0, 2) }) },
        },
      },
    },
  });
}

class World {
  readonly routes: (NavRoute | null)[] = [];
  readonly actor: Actor<typeof nestedNavigationMachine>;
  /** The last change came from the address bar (no route is pushed for it). */
  synced = false;
  /** The label each level should show: a route carries only slugs until the page names them. */
  labels: string[] = [];

  constructor() {
    const machine = nestedNavigationMachine.provide({ actions: { showRoute: (_, { route }) => this.routes.push(route) } });
    this.actor = createActor(machine).start();
  }

  send(event: Parameters<Actor<typeof nestedNavigationMachine>['send']>[0]) {
    if (event.type !== 'SET_LABELS') this.synced = event.type === 'SYNC_ROUTE';
    const before = this.actor.getSnapshot().context.stack;
    const labelsBefore = [...this.labels];
    this.actor.send(event);
    if (event.type === 'START') this.labels = [event.label];
    if (event.type === 'OPEN_COLLECTION') this.labels[this.actor.getSnapshot().context.stack.length - 1] = event.label;
    // Levels the route still shows keep the names already learnt; new ones show their slug.
    if (event.type === 'SYNC_ROUTE') {
      this.labels = this.actor.getSnapshot().context.stack.map((level, i) =>
        before[i]?.collection === level.collection ? labelsBefore[i]! : i === 0 ? TOP_LABEL : level.collection,
      );
    }
    if (event.type === 'SET_LABELS' && event.label !== undefined) this.labels[event.depth] = event.label;
  }
}

function check(world: World, model: ModelContext, value: 'top' | 'nested') {
  const snapshot = world.actor.getSnapshot();
  expect(snapshot.value).toEqual({ active: value });
  const { context } = snapshot;
  expect(context.stack.map(({ collection, itemID }) => ({ collection, itemID }))).toEqual(model.stack);
  // The derived chain, and that it reads back as the same stack.
  expect(context.nestedID).toBe(expectedNestedId(model.stack));
  const steps = parseNestedId(context.nestedID);
  expect(steps?.filter((step) => step.kind === 'collection').map((step) => (step.kind === 'collection' ? step.slug : ''))).toEqual(model.stack.slice(1).map((level) => level.collection));
  expect(context.route).toEqual(expectedRoute(model.stack));
  if (!world.synced) expect(world.routes.at(-1)).toEqual(context.route);
  // Breadcrumbs: each level's collection and its open item, cut to 10 characters plus "...", the last one current.
  const crumbs = model.stack.flatMap((level, depth) => [
    { kind: 'collection', depth },
    ...(level.itemID === null ? [] : [{ kind: 'item', depth }]),
  ]);
  expect(context.crumbs.map(({ kind, depth }) => ({ kind, depth }))).toEqual(crumbs);
  for (const crumb of context.crumbs) {
    expect([...crumb.label].length).toBeLessThanOrEqual(13);
    if ([...crumb.fullLabel].length > 10) expect(crumb.label).toBe(`${[...crumb.fullLabel].slice(0, 10).join('')}...`);
    else expect(crumb.label).toBe(crumb.fullLabel);
  }
  expect(context.crumbs.map((crumb) => crumb.current)).toEqual(context.crumbs.map((_, i) => i === context.crumbs.length - 1));
  expect(context.crumbs[0]).toMatchObject({ label: 'Posts of t...', fullLabel: TOP_LABEL });
  // Labels of levels opened through events are kept.
  model.stack.forEach((level, depth) => {
    const real = context.stack[depth]!;
    expect(real.label).toBe(world.labels[depth]);
    if (level.itemID !== null && real.itemLabel !== undefined) expect(real.itemLabel).toBe(itemLabel(level.itemID));
  });
}

function runPaths(paths: ReturnType<ReturnType<typeof createTestModel>['getShortestPaths']>) {
  for (const path of paths) {
    it(path.description, async () => {
      let world: World | null = null;
      const w = () => (world ??= new World());
      const deepestDepth = () => w().actor.getSnapshot().context.stack.length - 1;
      await path.test({
        events: {
          START: () => w().send({ type: 'START', collectionID: TOP, label: TOP_LABEL }),
          START_WITH_ITEM: () => w().send({ type: 'START', collectionID: TOP, label: TOP_LABEL, itemID: 'a', itemLabel: itemLabel('a') }),
          SYNC_ROUTE: () => {
            w().send({ type: 'SYNC_ROUTE', route: { collectionID: TOP, label: TOP_LABEL, itemID: 'a', nestedID: `${slugAt(1)}.b.${slugAt(2)}` } });
            // The page names what it learns (the field's name, the item's title); level 2 keeps its slug.
            w().send({ type: 'SET_LABELS', depth: 1, label: labelAt(1), itemLabel: itemLabel('b') });
          },
          OPEN_A: () => w().send({ type: 'OPEN_ITEM', itemID: 'a', label: itemLabel('a') }),
          OPEN_B: () => w().send({ type: 'OPEN_ITEM', itemID: 'b', label: itemLabel('b') }),
          OPEN_TOP_B: () => w().send({ type: 'OPEN_ITEM', itemID: 'b', label: itemLabel('b'), depth: 0 }),
          CLOSE_ITEM: () => w().send({ type: 'CLOSE_ITEM' }),
          OPEN_COLLECTION: () => {
            const depth = deepestDepth() + 1;
            w().send({ type: 'OPEN_COLLECTION', slug: slugAt(depth), label: labelAt(depth) });
          },
          OPEN_COLLECTION_OF_TOP: () => w().send({ type: 'OPEN_COLLECTION', slug: slugAt(1), label: labelAt(1), depth: 0 }),
          CLOSE: () => w().send({ type: 'CLOSE' }),
          RETURN_TO_TOP_ITEM: () => w().send({ type: 'RETURN_TO', depth: 0 }),
          RETURN_TO_TOP_LIST: () => w().send({ type: 'RETURN_TO', depth: 0, to: 'collection' }),
          RETURN_TO_LEVEL_1: () => w().send({ type: 'RETURN_TO', depth: 1 }),
        },
        states: {
          idle: () => {
            expect(w().actor.getSnapshot().value).toBe('idle');
            expect(w().actor.getSnapshot().context.stack).toEqual([]);
          },
          top: (state) => check(w(), state.context, 'top'),
          nested: (state) => check(w(), state.context, 'nested'),
        },
      });
    });
  }
}

describe('nested navigation model, two levels deep: every shortest path', () => {
  const testModel = createTestModel(makeModel(2, true, true), { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('reaches every stack of up to two nested levels with items a and b', () => {
    const stacks = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.context.stack))));
    // idle; top: none, a, b; one level: 2 × 3; two levels: 2 × 2 × 3.
    expect(stacks.size).toBe(1 + 3 + 6 + 12);
  });

  runPaths(paths);
});

describe('nested navigation model, one level deep and one item per level: every simple path', () => {
  const testModel = createTestModel(makeModel(1, true, false), { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getSimplePaths();

  it('has a manageable number of simple paths', () => {
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.length).toBeLessThan(2000);
  });

  runPaths(paths);
});
