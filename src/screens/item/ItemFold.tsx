/**
 * An item with its nested collections folded out beside it (docs/console.md
 * "Item page"). The address is the source of truth: viewItem shows the item alone; viewNestedCollection
 * (`…/item/{itemID}/nestedID/{chain}`) and nestedItem (`…/item/{collectionNestedID}`) fold out
 * one level per nested collection in the chain, each with its own list (100 per page) and item
 * panel. The nested-navigation machine holds the stack read from the address and turns the
 * person's moves into addresses: opening a nested collection pushes a level, closing one pops it,
 * opening an item at a level or going back through a breadcrumb pops the deeper levels.
 *
 * Two panes show at a time, side by side (stacked at 900 px and below): the item the deepest
 * level hangs under, and the deepest level (its list, or its open item in place of the list).
 * Every other level's item form and list stay mounted but hidden, so unsaved changes and a list's
 * page survive going deeper and coming back; the forms share one leave question (leave-guard.tsx).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { matchPath, useLocation, useNavigate, type Location } from 'react-router';
import { useMachine } from '@xstate/react';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { routeTemplate } from '../../../definitions/route-path.ts';
import { nestedNavigationMachine } from '../../../machines/nested-navigation.ts';
import { routeOf, stackFromRoute, type NavCrumb, type NavLevel, type NavRoute, type NavRouteInput } from '../../../machines/nested-navigation-rules.ts';
import { routerPath } from '../../../renderers/router/router-path.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { Collection, ProjectScope } from '../../api/content.ts';
import { useProjectPath } from '../project/project-context.ts';
import { NestedItemList } from '../items/ItemListScreen.tsx';
import { nestedFields } from '../items/nested-path.ts';
import { ItemFormPage } from './ItemFormPage.tsx';
import { LeaveGuardHost, useLeaveRefusals } from './leave-guard.tsx';
import { newNestedItemID } from './new-nested-item.ts';

export interface ItemFoldProps {
  scope: ProjectScope;
  collection: Collection;
  itemID: string;
  /** viewNestedCollection's chain (ends in a nested collection's slug). */
  nestedID?: string | undefined;
  /** nestedItem: the item open in the deepest nested collection (`new` for one to create). */
  collectionNestedID?: string | undefined;
}

/** The addresses that show an item and its fold, most specific first. */
const foldPatterns = ['nestedItem', 'viewNestedCollection', 'viewItem'].map((name) => `/${routerPath(routeTemplate(name) ?? '')}`);

/** The stack an address shows, when it shows an item of this project (else undefined). */
export function stackAtPath(pathname: string, scope: ProjectScope): NavLevel[] | undefined {
  for (const pattern of foldPatterns) {
    const match = matchPath({ path: pattern, end: true }, pathname);
    if (!match) continue;
    const { organizationID, projectID, collectionID, itemID, nestedID, collectionNestedID } = match.params;
    if (organizationID !== scope.organizationID || projectID !== scope.projectID || !collectionID || !itemID) return undefined;
    return stackFromRoute({ collectionID, itemID, nestedID: nestedID ?? '', collectionNestedID: collectionNestedID ?? null });
  }
  return undefined;
}

/** Whether `next` shows the same levels as `stack` down to `depth`, with the same items open. */
export const keepsLevels = (stack: readonly NavLevel[], next: readonly NavLevel[] | undefined, depth: number) =>
  next !== undefined && stack.slice(0, depth + 1).every((level, i) => next[i]?.collection === level.collection && next[i]?.itemID === level.itemID);

/** The chain naming level `depth`'s list: slugs and the items open above it (`chapters.<id>.notes`). */
const listChainOf = (stack: readonly NavLevel[], depth: number) =>
  stack
    .slice(1, depth + 1)
    .flatMap((level, i) => (i < depth - 1 ? [level.collection, level.itemID ?? ''] : [level.collection]))
    .join('.');

export function ItemFold(props: ItemFoldProps) {
  return (
    <LeaveGuardHost>
      <Fold {...props} />
    </LeaveGuardHost>
  );
}

function Fold({ scope, collection, itemID, nestedID, collectionNestedID }: ItemFoldProps) {
  const format = useFormat();
  const navigate = useNavigate();
  const location = useLocation();
  const path = useProjectPath();
  const refusals = useLeaveRefusals();

  const routeInput: NavRouteInput = useMemo(
    () => ({ collectionID: collection.id, label: collection.name, itemID, nestedID: nestedID ?? '', collectionNestedID: collectionNestedID ?? null }),
    [collection.id, collection.name, itemID, nestedID, collectionNestedID],
  );
  // What the address shows: the panes are drawn from it, so a refused navigation changes nothing.
  const stack = useMemo(() => stackFromRoute(routeInput), [routeInput]);
  const fields = useMemo(() => (nestedID ? nestedFields(collection.schema, nestedID) : []), [collection.schema, nestedID]);

  // The machine is made once; where its routes go is read through this ref.
  const show = useRef<(route: NavRoute) => void>(() => undefined);
  show.current = (route) => void navigate(path(route.name, route.params));
  const [logic] = useState(() =>
    nestedNavigationMachine.provide({
      actions: {
        showRoute: (_, { route }) => {
          if (route) show.current(route);
        },
      },
    }),
  );
  const [snapshot, send] = useMachine(logic);

  // The items' names as their forms told them, by level and item: a level read again from the
  // address (after a refused navigation) gets its name back.
  const itemNames = useRef(new Map<string, string>());
  // The machine reads the stack from the address (again after a refused navigation, which its
  // event had already moved past), then learns the levels' names.
  useLayoutEffect(() => {
    send({ type: 'SYNC_ROUTE', route: routeInput });
    stack?.forEach((level, depth) => {
      const itemLabel = level.itemID === null ? undefined : itemNames.current.get(`${depth}:${level.itemID}`);
      const label = depth === 0 ? undefined : fields?.[depth - 1]?.name;
      if (label !== undefined || itemLabel !== undefined) send({ type: 'SET_LABELS', depth, label, itemLabel });
    });
  }, [send, routeInput, stack, fields, refusals]);

  const deepest = stack ? stack.length - 1 : 0;
  const deepestKey = stack ? `${deepest}:${stack[deepest]!.itemID ?? 'list'}:${listChainOf(stack, deepest)}` : 'none';
  const panes = useRef<HTMLDivElement>(null);
  const firstDeepest = useRef(deepestKey);
  // A level opened or closed here: the keyboard goes on in the pane that appeared.
  useEffect(() => {
    if (firstDeepest.current === deepestKey) return;
    firstDeepest.current = '';
    const pane = panes.current?.querySelector<HTMLElement>('[data-fold-pane="deepest"] h2');
    if (!pane) return;
    pane.tabIndex = -1;
    pane.focus({ preventScroll: true });
    pane.scrollIntoView?.({ block: 'nearest' });
  }, [deepestKey]);

  const openNested = useCallback(
    (depth: number) => (field: SchemaField) => {
      send({ type: 'OPEN_COLLECTION', slug: field.slug, label: field.name, depth });
    },
    [send],
  );
  const nameItem = useCallback(
    (depth: number, itemID: string) => (name: string | null) => {
      if (name === null) return;
      itemNames.current.set(`${depth}:${itemID}`, name);
      send({ type: 'SET_LABELS', depth, itemLabel: name });
    },
    [send],
  );

  if (!stack || (nestedID && !fields)) {
    return (
      <section className="panel" aria-labelledby="fold-missing">
        <h2 id="fold-missing">{format(stack ? 'fold.notFound' : 'fold.invalid')}</h2>
        <a href={path('viewItem', { collectionID: collection.id, itemID })} onClick={(event) => followLink(event, () => navigate(path('viewItem', { collectionID: collection.id, itemID })))}>
          {collection.name}
        </a>
      </section>
    );
  }

  const stays = (depth: number) => (next: Location) => keepsLevels(stack, stackAtPath(next.pathname, scope), depth);
  const levelSchema = (depth: number): readonly SchemaField[] => (depth === 0 ? collection.schema : (fields?.[depth - 1]?.nestedCollectionSchema ?? []));
  const levelView = (depth: number): Collection => (depth === 0 ? collection : { ...collection, name: fields?.[depth - 1]?.name ?? stack[depth]!.collection, singleItem: false });
  const paneOf = (visible: boolean, isDeepest: boolean) => ({ hidden: !visible, 'data-fold-pane': isDeepest ? 'deepest' : visible ? 'parent' : 'folded' });

  const children = [];
  for (let depth = 0; depth <= deepest; depth += 1) {
    const level = stack[depth]!;
    const chain = listChainOf(stack, depth);
    if (depth > 0) {
      const isDeepestList = depth === deepest && level.itemID === null;
      children.push(
        <div key={`list:${chain}`} className="fold-pane fold-pane-list" {...paneOf(isDeepestList, isDeepestList)}>
          <NestedItemList
            collectionID={collection.id}
            itemID={itemID}
            nestedID={chain}
            embedding={{
              itemOpen: level.itemID !== null,
              onOpenItem: (id) => send({ type: 'OPEN_ITEM', itemID: id, depth }),
              onClose: () => send({ type: 'CLOSE' }),
            }}
          />
        </div>,
      );
    }
    if (level.itemID !== null) {
      const isDeepest = depth === deepest;
      const visible = isDeepest || depth === deepest - 1;
      const levelItem = level.itemID === newNestedItemID && depth > 0 ? null : level.itemID;
      // A new nested item may start from values a list layout set.
      const prefill = levelItem === null && isDeepest ? prefillOf(location.state) : undefined;
      children.push(
        <div key={`item:${chain}:${level.itemID}`} className="fold-pane fold-pane-item" {...paneOf(visible, isDeepest)}>
          <ItemFormPage
            scope={scope}
            collection={levelView(depth)}
            schema={levelSchema(depth)}
            itemID={levelItem}
            initialValues={prefill}
            nested={depth > 0 ? { itemID, nestedID: chain } : undefined}
            stays={stays(depth)}
            onOpenNested={openNested(depth)}
            onName={nameItem(depth, level.itemID)}
          />
        </div>,
      );
    }
  }

  return (
    <div className={deepest > 0 ? 'item-fold is-folded' : 'item-fold'} ref={panes}>
      {deepest > 0 ? <FoldCrumbs crumbs={snapshot.context.crumbs} stack={snapshot.context.stack} onReturn={(depth, to) => send({ type: 'RETURN_TO', depth, to })} /> : null}
      {children}
    </div>
  );
}

/** The values a navigation to a new nested item carries (`{itemValues}`, as for a top-level new item). */
function prefillOf(state: unknown): Record<string, unknown> | undefined {
  const values = typeof state === 'object' && state !== null ? (state as { itemValues?: unknown }).itemValues : undefined;
  return typeof values === 'object' && values !== null && !Array.isArray(values) ? (values as Record<string, unknown>) : undefined;
}

/** A plain click follows the link in the page; a click that opens a tab or window is left to the browser. */
function followLink(event: MouseEvent<HTMLAnchorElement>, follow: () => void) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  follow();
}

/** The breadcrumbs of the fold (as in the list, 10 characters plus "..."). */
function FoldCrumbs({ crumbs, stack, onReturn }: { crumbs: readonly NavCrumb[]; stack: readonly NavLevel[]; onReturn: (depth: number, to: 'item' | 'collection') => void }) {
  const format = useFormat();
  const path = useProjectPath();
  const hrefOf = (crumb: NavCrumb) => {
    const kept = stack.slice(0, crumb.depth + 1).map((level, i) => (i === crumb.depth && crumb.kind === 'collection' ? { ...level, itemID: null } : level));
    const route = routeOf(kept);
    return route ? path(route.name, route.params) : undefined;
  };
  return (
    <nav className="breadcrumbs fold-crumbs" aria-label={format('itemList.breadcrumbs')}>
      <ol>
        {crumbs.map((crumb) => (
          <li key={`${crumb.kind}-${crumb.depth}`}>
            {crumb.current ? (
              <span aria-current="page" title={crumb.fullLabel}>
                {crumb.label}
              </span>
            ) : (
              <a href={hrefOf(crumb)} title={crumb.fullLabel} onClick={(event) => followLink(event, () => onReturn(crumb.depth, crumb.kind === 'collection' ? 'collection' : 'item'))}>
                {crumb.label}
              </a>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
