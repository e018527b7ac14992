/**
 * The item page's ways out: where the item-form machine's navigations go (the list, the single-item
 * view, another item, a new item, or a navigation held back), and the guard that holds the person's
 * own navigations (links, the browser's back, closing the tab) while there are unsaved changes.
 * The forms shown together (an item and its folded nested items) share one blocker (leave-guard.tsx).
 */
import { useCallback, useEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigate, type Blocker, type Location } from 'react-router';
import type { ItemFormDestination } from '../../../machines/item-form.ts';
import type { ItemFormSession } from '../../../renderers/fields/ItemFormView.tsx';
import type { NestedListAddress } from '../../api/item-address.ts';
import { useProjectPath } from '../project/project-context.ts';
import { useLeaveGuard } from './leave-guard.tsx';

/** Where the machine's navigations go; `leaving` lets the page's own navigations past its blocker. */
export function useItemPageGo(collectionID: string, list: NestedListAddress | undefined, onShowSingleItem: (() => void) | undefined) {
  const navigate = useNavigate();
  const path = useProjectPath();
  // Set just before the page itself navigates, so the blocker lets its own navigations through.
  const leaving = useRef(false);
  const blockerRef = useRef<Blocker | null>(null);
  const listPath = list ? path('viewNestedCollection', { collectionID, ...list }) : path('viewCollection', { collectionID });

  const go = (destination: ItemFormDestination) => {
    leaving.current = true;
    switch (destination.kind) {
      case 'list':
        navigate(listPath);
        return;
      case 'singleItem':
        if (onShowSingleItem) onShowSingleItem();
        else navigate(path('viewCollection', { collectionID }));
        return;
      case 'item':
        navigate(list ? path('nestedItem', { collectionID, ...list, collectionNestedID: destination.itemID }) : path('viewItem', { collectionID, itemID: destination.itemID }));
        return;
      case 'newItem':
        navigate(path('addItemToCollection', { collectionID }), { state: { itemValues: destination.values, markedChanged: true } });
        return;
      case 'elsewhere': {
        const blocker = blockerRef.current;
        if (blocker?.state === 'blocked') blocker.proceed();
        else if (typeof destination.to === 'string') navigate(destination.to);
        else if (destination.to && typeof destination.to === 'object') navigate(destination.to as Location);
        return;
      }
    }
  };
  return { go, leaving, blockerRef, listPath };
}

export interface ItemPageGuardOptions {
  /** Whether a navigation to `next` keeps this form shown (a nested collection folding out beside it). */
  stays: ((next: Location) => boolean) | undefined;
  singleView: boolean;
  /** The way out of a finished form was refused (another form's question answered Stay). */
  onStayedAfterFinishing: () => void;
  /** Where Close goes when the machine is not taking LEAVE yet (the item still loading). */
  home: ItemFormDestination;
}

/**
 * Holds navigations that would lose unsaved changes and asks through the machine; returns Close
 * (`leave`), which asks the same way.
 */
export function useItemPageGuard(session: ItemFormSession, ways: ReturnType<typeof useItemPageGo>, { stays, singleView, onStayedAfterFinishing, home }: ItemPageGuardOptions) {
  const { snapshot, send, actorRef, context } = session;
  const { go, leaving, blockerRef, listPath } = ways;
  const navigate = useNavigate();
  const path = useProjectPath();
  const staysRef = useRef(stays);
  staysRef.current = stays;

  const shouldBlock = useCallback(
    ({ currentLocation, nextLocation }: { currentLocation: Location; nextLocation: Location }) => {
      if (leaving.current) return false;
      if (currentLocation.pathname === nextLocation.pathname && currentLocation.search === nextLocation.search) return false;
      if (staysRef.current?.(nextLocation)) return false;
      const now = actorRef.getSnapshot();
      return now.context.changed && now.matches('form');
    },
    [actorRef, leaving],
  );
  const { held: blocker, othersWouldBlock, refusals } = useLeaveGuard(shouldBlock);
  // The refusals counted when the machine finished; one more afterwards means its way out was refused.
  const refusalsWhenDone = useRef<number | null>(null);
  const finished = snapshot.status === 'done';
  useEffect(() => {
    if (!finished) return;
    if (refusalsWhenDone.current === null) refusalsWhenDone.current = refusals;
    else if (refusals > refusalsWhenDone.current) onStayedAfterFinishing();
  }, [finished, refusals, onStayedAfterFinishing]);
  blockerRef.current = blocker;
  const location = useLocation();
  useEffect(() => {
    if (!blocker || blocker.state !== 'blocked') return;
    const event = { type: 'LEAVE' as const, to: { kind: 'elsewhere' as const, to: blocker.location } };
    if (actorRef.getSnapshot().can(event)) send(event);
    else blocker.reset();
  }, [blocker, actorRef, send]);

  // Closing the tab or reloading with unsaved changes: the browser asks.
  useEffect(() => {
    if (!context.changed) return undefined;
    const hold = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', hold);
    return () => window.removeEventListener('beforeunload', hold);
  }, [context.changed]);

  // Close in the single-item view leaves the collection for the project's page (there is no list to go back to).
  const leave = () => {
    const event = singleView ? ({ type: 'LEAVE', to: { kind: 'elsewhere', to: path('viewProject') } } as const) : ({ type: 'LEAVE' } as const);
    // Another form shown with this one (a folded nested item) has unsaved changes the way out would
    // lose: the navigation is held and that form asks, and this one stays open if the answer is Stay.
    if (!singleView && !actorRef.getSnapshot().context.changed) {
      if (othersWouldBlock({ currentLocation: location, nextLocation: { ...location, pathname: listPath, search: '', hash: '', state: null, key: '' }, historyAction: NavigationType.Push })) {
        navigate(listPath);
        return;
      }
    }
    // While the item is still loading there is nothing to lose: the machine takes LEAVE only from the form.
    if (actorRef.getSnapshot().can(event)) send(event);
    else go(singleView ? { kind: 'elsewhere', to: path('viewProject') } : home);
  };

  /** Stay in the leave question: a navigation held for it is let go. */
  const stay = () => {
    if (blockerRef.current?.state === 'blocked') blockerRef.current.reset();
  };
  return { leave, stay };
}
