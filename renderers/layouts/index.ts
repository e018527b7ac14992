/**
 * The layout registry: the list draws its table itself and every other
 * layout from here, each in a chunk of its own (FullCalendar, dnd-kit and Leaflet load only when
 * their layout is chosen). A layout is a default export taking LayoutProps.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { layoutKinds, type LayoutKind } from '../../definitions/layout-settings.ts';
import type { MessageKey } from '../../definitions/messages/format.ts';
import type { LayoutProps } from './types.ts';

export type OtherLayoutKind = Exclude<LayoutKind, 'table'>;

export const layouts: Record<OtherLayoutKind, LazyExoticComponent<ComponentType<LayoutProps>>> = {
  calendar: lazy(() => import('./calendar/CalendarLayout.tsx')),
  kanban: lazy(() => import('./kanban/KanbanLayout.tsx')),
  map: lazy(() => import('./map/MapLayout.tsx')),
};

/** Every layout the menu offers, in its order. */
export const layoutChoices: readonly LayoutKind[] = layoutKinds;

/** A layout kind from untrusted text (the `layout` query parameter), or undefined. */
export const layoutKindOf = (value: string | null | undefined): LayoutKind | undefined =>
  layoutKinds.find((kind) => kind === value);

const labelKeys = { table: 'itemList.layoutTable', calendar: 'itemList.layoutCalendar', kanban: 'itemList.layoutKanban', map: 'itemList.layoutMap' } as const satisfies Record<LayoutKind, MessageKey>;

/** Message key of a layout's name in the menu. */
export const layoutLabelKey = (kind: LayoutKind) => labelKeys[kind];
