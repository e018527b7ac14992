/**
 * Nested navigation: a stack of active collections, each with its active
 * item. Opening a nested collection of the deepest open item pushes a level (of an item higher up:
 * the levels below that item are popped first, then the new one pushed); closing pops the
 * deepest one; returning to a level (a breadcrumb) pops the deeper ones; opening another item at
 * a level pops the levels that hung under the previous one. The nestedID, the route and the
 * breadcrumbs (10 characters plus "...") are derived from the stack after every change.
 *
 * No I/O: the page provides `showRoute`, called with the route after every change of the stack
 * (not when a route is read in with SYNC_ROUTE, which came from the address bar).
 */
import { assign, setup } from 'xstate';
import {
  breadcrumbsOf,
  maxNestedLevels,
  nestedIdOf,
  routeOf,
  stackFromRoute,
  type NavCrumb,
  type NavLevel,
  type NavRoute,
  type NavRouteInput,
} from './nested-navigation-rules.ts';

export interface NestedNavigationContext {
  stack: NavLevel[];
  /** Derived: the chain below the top item (parseNestedId's form), ending in the deepest open item, if any. */
  nestedID: string;
  /** Derived: the route showing the stack. */
  route: NavRoute | null;
  /** Derived: the breadcrumbs. */
  crumbs: NavCrumb[];
}

export type NestedNavigationEvent =
  /** Show a collection (and maybe one of its items): a new stack of one level. */
  | { type: 'START'; collectionID: string; label: string; itemID?: string | null; itemLabel?: string }
  /** The address bar says where we are: the stack is read from the route. */
  | { type: 'SYNC_ROUTE'; route: NavRouteInput }
  /** Open an item at a level (the deepest by default); levels below it belonged to the previous item. */
  | { type: 'OPEN_ITEM'; itemID: string; label?: string; depth?: number }
  /** Close the item open at a level (the deepest by default), and the levels below it. */
  | { type: 'CLOSE_ITEM'; depth?: number }
  /** Open a nested collection of the item open at a level (the deepest by default): pops the levels below it, then pushes one. */
  | { type: 'OPEN_COLLECTION'; slug: string; label: string; depth?: number }
  /** Close the deepest nested collection: pops it. */
  | { type: 'CLOSE' }
  /** Return to a level (a breadcrumb): pops the deeper ones; `to: 'collection'` also closes its item. */
  | { type: 'RETURN_TO'; depth: number; to?: 'item' | 'collection' }
  /** Names learnt later (the level's field name, the item's primary value). */
  | { type: 'SET_LABELS'; depth: number; label?: string; itemLabel?: string };

const derived = (stack: NavLevel[]) => ({ stack, nestedID: nestedIdOf(stack), route: routeOf(stack), crumbs: breadcrumbsOf(stack) });

const deepestIndex = (context: NestedNavigationContext) => context.stack.length - 1;
const depthOf = (context: NestedNavigationContext, depth: number | undefined) => depth ?? deepestIndex(context);
const isLevel = (context: NestedNavigationContext, depth: number) => Number.isInteger(depth) && depth >= 0 && depth < context.stack.length;

export const nestedNavigationMachine = setup({
  types: {
    context: {} as NestedNavigationContext,
    events: {} as NestedNavigationEvent,
  },
  guards: {
    isNested: ({ context }) => context.stack.length > 1,
    isRouteValid: (_, params: { route: NavRouteInput }) => stackFromRoute(params.route) !== undefined,
    isLevel: ({ context }, params: { depth: number | undefined }) => isLevel(context, depthOf(context, params.depth)),
    hasItemAt: ({ context }, params: { depth: number | undefined }) => {
      const depth = depthOf(context, params.depth);
      return isLevel(context, depth) && context.stack[depth]!.itemID !== null;
    },
    // Nested items exist only under a saved item, and nesting has a limit.
    canOpenCollection: ({ context }, params: { slug: string; depth: number | undefined }) => {
      const depth = depthOf(context, params.depth);
      return params.slug !== '' && !params.slug.includes('.') && isLevel(context, depth) && context.stack[depth]!.itemID !== null && depth < maxNestedLevels;
    },
    isSameItem: ({ context }, params: { itemID: string; depth: number | undefined }) =>
      context.stack[depthOf(context, params.depth)]?.itemID === params.itemID,
  },
  actions: {
    showRoute: (_, _params: { route: NavRoute | null }) => {},
    start: assign((_, params: { collectionID: string; label: string; itemID: string | null; itemLabel: string | undefined }) =>
      derived([
        {
          collection: params.collectionID,
          label: params.label,
          itemID: params.itemID,
          ...(params.itemID !== null && params.itemLabel !== undefined ? { itemLabel: params.itemLabel } : {}),
        },
      ]),
    ),
    syncRoute: assign(({ context }, params: { route: NavRouteInput }) => {
      const stack = stackFromRoute(params.route) ?? [];
      // Keep the labels already known for the levels the route still shows.
      const kept = stack.map((level, i) => {
        const known = context.stack[i];
        if (!known || known.collection !== level.collection) return level;
        return { ...level, label: known.label, ...(known.itemID === level.itemID && known.itemLabel !== undefined ? { itemLabel: known.itemLabel } : {}) };
      });
      return derived(kept);
    }),
    openItem: assign(({ context }, params: { itemID: string; label: string | undefined; depth: number | undefined }) => {
      const depth = depthOf(context, params.depth);
      const level = context.stack[depth]!;
      const { itemLabel: _old, ...rest } = level;
      return derived([...context.stack.slice(0, depth), { ...rest, itemID: params.itemID, ...(params.label !== undefined ? { itemLabel: params.label } : {}) }]);
    }),
    closeItem: assign(({ context }, params: { depth: number | undefined }) => {
      const depth = depthOf(context, params.depth);
      const { itemLabel: _old, ...rest } = context.stack[depth]!;
      return derived([...context.stack.slice(0, depth), { ...rest, itemID: null }]);
    }),
    push: assign(({ context }, params: { slug: string; label: string; depth: number | undefined }) =>
      derived([...context.stack.slice(0, depthOf(context, params.depth) + 1), { collection: params.slug, label: params.label, itemID: null }]),
    ),
    pop: assign(({ context }) => derived(context.stack.slice(0, -1))),
    returnTo: assign(({ context }, params: { depth: number; to: 'item' | 'collection' }) => {
      const stack = context.stack.slice(0, params.depth + 1);
      if (params.to === 'collection') {
        const { itemLabel: _old, ...rest } = stack[params.depth]!;
        stack[params.depth] = { ...rest, itemID: null };
      }
      return derived(stack);
    }),
    setLabels: assign(({ context }, params: { depth: number; label: string | undefined; itemLabel: string | undefined }) =>
      derived(
        context.stack.map((level, i) =>
          i !== params.depth
            ? level
            : {
                ...level,
                ...(params.label !== undefined ? { label: params.label } : {}),
                ...(params.itemLabel !== undefined && level.itemID !== null ? { itemLabel: params.itemLabel } : {}),
              },
        ),
      ),
    ),
  },
}).createMachine({
  id: 'nestedNavigation',
  context: derived([]),
  initial: 'idle',
  on: {
    START: {
      target: '.active.deciding',
      actions: [
        {
          type: 'start',
          params: ({ event }) => ({ collectionID: event.collectionID, label: event.label, itemID: event.itemID ?? null, itemLabel: event.itemLabel }),
        },
        { type: 'showRoute', params: ({ context }) => ({ route: context.route }) },
      ],
    },
    SYNC_ROUTE: {
      guard: { type: 'isRouteValid', params: ({ event }) => ({ route: event.route }) },
      target: '.active.deciding',
      actions: { type: 'syncRoute', params: ({ event }) => ({ route: event.route }) },
    },
  },
  states: {
    idle: {},
    active: {
      initial: 'deciding',
      on: {
        OPEN_ITEM: [
          // The item already open: nothing changes (the levels below it stay).
          { guard: { type: 'isSameItem', params: ({ event }) => ({ itemID: event.itemID, depth: event.depth }) } },
          {
            guard: { type: 'isLevel', params: ({ event }) => ({ depth: event.depth }) },
            target: '.deciding',
            actions: [
              { type: 'openItem', params: ({ event }) => ({ itemID: event.itemID, label: event.label, depth: event.depth }) },
              { type: 'showRoute', params: ({ context }) => ({ route: context.route }) },
            ],
          },
        ],
        CLOSE_ITEM: {
          guard: { type: 'hasItemAt', params: ({ event }) => ({ depth: event.depth }) },
          target: '.deciding',
          actions: [{ type: 'closeItem', params: ({ event }) => ({ depth: event.depth }) }, { type: 'showRoute', params: ({ context }) => ({ route: context.route }) }],
        },
        OPEN_COLLECTION: {
          guard: { type: 'canOpenCollection', params: ({ event }) => ({ slug: event.slug, depth: event.depth }) },
          target: '.deciding',
          actions: [
            { type: 'push', params: ({ event }) => ({ slug: event.slug, label: event.label, depth: event.depth }) },
            { type: 'showRoute', params: ({ context }) => ({ route: context.route }) },
          ],
        },
        RETURN_TO: {
          guard: { type: 'isLevel', params: ({ event }) => ({ depth: event.depth }) },
          target: '.deciding',
          actions: [
            { type: 'returnTo', params: ({ event }) => ({ depth: event.depth, to: event.to ?? 'item' }) },
            { type: 'showRoute', params: ({ context }) => ({ route: context.route }) },
          ],
        },
        SET_LABELS: {
          guard: { type: 'isLevel', params: ({ event }) => ({ depth: event.depth }) },
          actions: { type: 'setLabels', params: ({ event }) => ({ depth: event.depth, label: event.label, itemLabel: event.itemLabel }) },
        },
      },
      states: {
        /** Decides between the top level and a nested one after every change. */
        deciding: {
          always: [{ guard: 'isNested', target: 'nested' }, { target: 'top' }],
        },
        top: {},
        nested: {
          on: {
            CLOSE: {
              target: 'deciding',
              actions: ['pop', { type: 'showRoute', params: ({ context }) => ({ route: context.route }) }],
            },
          },
        },
      },
    },
  },
});
