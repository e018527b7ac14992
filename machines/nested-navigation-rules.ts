/**
 * The pure side of nested navigation: a stack of levels, the top one a
 * collection and each deeper one a nested collection of the item open above it; the nestedID
 * chain and the route derived from the stack; the stack read back from a route; the breadcrumbs.
 * The chain follows definitions/content.ts parseNestedId: nested collection slugs and item ids
 * alternate after the top item, joined by dots (`chapters.<id>.paragraphs.<id>`).
 */
import { contentLimits, parseNestedId } from '../definitions/content.ts';

/** One level of the stack. */
export interface NavLevel {
  /** The collection id at the top; a nested collection's slug below it. */
  collection: string;
  /** What the breadcrumb shows for the level: the collection's or the nested field's name. */
  label: string;
  /** The item open at this level, or null. Every level but the deepest has one. */
  itemID: string | null;
  /** What the breadcrumb shows for the item (its primary field), when known; else its id. */
  itemLabel?: string;
}

/** Levels below the top one a stack may hold (nested collections inside nested collections). */
export const maxNestedLevels = contentLimits.nestingDepth;

export const breadcrumbMaxChars = 10;

/** A label cut to 10 characters plus "..." (as in the item list). */
export const truncateLabel = (label: string, max = breadcrumbMaxChars) => {
  const characters = [...label];
  return characters.length > max ? `${characters.slice(0, max).join('')}...` : label;
};

/**
 * The nestedID of the stack: the chain below the top item down to the deepest level, ending in
 * that level's open item when there is one (the API's address of the nested item) or in its slug
 * (the address of the nested list). Empty for a stack of one level.
 */
export function nestedIdOf(stack: readonly NavLevel[]): string {
  const parts: string[] = [];
  stack.slice(1).forEach((level) => {
    parts.push(level.collection);
    if (level.itemID !== null) parts.push(level.itemID);
  });
  return parts.join('.');
}

/** The nestedID of the deepest level's list (the chain without the deepest open item). */
export function listNestedIdOf(stack: readonly NavLevel[]): string {
  return stack
    .slice(1)
    .flatMap((level, i, levels) => (i < levels.length - 1 ? [level.collection, level.itemID ?? ''] : [level.collection]))
    .join('.');
}

/** The route that shows the stack. */
export type NavRoute =
  | { name: 'viewCollection'; params: { collectionID: string } }
  | { name: 'viewItem'; params: { collectionID: string; itemID: string } }
  | { name: 'viewNestedCollection'; params: { collectionID: string; itemID: string; nestedID: string } }
  | { name: 'nestedItem'; params: { collectionID: string; itemID: string; nestedID: string; collectionNestedID: string } };

export function routeOf(stack: readonly NavLevel[]): NavRoute | null {
  const top = stack[0];
  const deepest = stack.at(-1);
  if (!top || !deepest) return null;
  if (top.itemID === null) return { name: 'viewCollection', params: { collectionID: top.collection } };
  if (stack.length === 1) return { name: 'viewItem', params: { collectionID: top.collection, itemID: top.itemID } };
  const base = { collectionID: top.collection, itemID: top.itemID, nestedID: listNestedIdOf(stack) };
  return deepest.itemID === null ? { name: 'viewNestedCollection', params: base } : { name: 'nestedItem', params: { ...base, collectionNestedID: deepest.itemID } };
}

/** What a route says about the stack; labels are filled in later (the route carries none). */
export interface NavRouteInput {
  collectionID: string;
  label?: string;
  itemID?: string | null;
  /** The chain as the route gives it (viewNestedCollection: ends in a slug). */
  nestedID?: string;
  /** nestedItem: the open item of the deepest level. */
  collectionNestedID?: string | null;
}

/**
 * The stack a route shows, or undefined when the chain is not one (empty parts, a chain without
 * a top item, deeper than the limit, or a nested item without its level).
 */
export function stackFromRoute(route: NavRouteInput): NavLevel[] | undefined {
  const top: NavLevel = { collection: route.collectionID, label: route.label ?? route.collectionID, itemID: route.itemID ?? null };
  const listChain = route.nestedID ?? '';
  if (route.collectionNestedID) {
    // nestedItem: the list's chain ends in a slug, and the item id follows it.
    if (listChain === '' || listChain.split('.').length % 2 === 0) return undefined;
  }
  const steps = parseNestedId(route.collectionNestedID ? `${listChain}.${route.collectionNestedID}` : listChain);
  if (!steps) return undefined;
  if (steps.length > 0 && top.itemID === null) return undefined;
  const stack = [top];
  for (const step of steps) {
    if (step.kind === 'collection') stack.push({ collection: step.slug, label: step.slug, itemID: null });
    else stack[stack.length - 1] = { ...stack[stack.length - 1]!, itemID: step.id };
  }
  return stack.length - 1 > maxNestedLevels ? undefined : stack;
}

/** One breadcrumb: a level's collection, or the item open at it. */
export interface NavCrumb {
  kind: 'collection' | 'item';
  /** The label cut to 10 characters plus "...". */
  label: string;
  /** The whole label (a title or an accessible name). */
  fullLabel: string;
  depth: number;
  /** The last crumb is the page shown and is not a link. */
  current: boolean;
}

/** Collection › item › nested collection › nested item › … down to what is shown. */
export function breadcrumbsOf(stack: readonly NavLevel[]): NavCrumb[] {
  const crumbs: Omit<NavCrumb, 'current'>[] = [];
  stack.forEach((level, depth) => {
    crumbs.push({ kind: 'collection', label: truncateLabel(level.label), fullLabel: level.label, depth });
    if (level.itemID !== null) {
      const full = level.itemLabel ?? level.itemID;
      crumbs.push({ kind: 'item', label: truncateLabel(full), fullLabel: full, depth });
    }
  });
  return crumbs.map((crumb, i) => ({ ...crumb, current: i === crumbs.length - 1 }));
}
