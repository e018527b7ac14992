/** Contracts between the route table, the router renderer and the shell that supplies the parts. */
import type { ComponentType } from 'react';
import type { Params } from 'react-router';
import type { GuardName, LayoutName, ScreenName } from '../../definitions/routes.ts';
import type { MessageKey } from '../../definitions/messages/format.ts';

export interface GuardContext {
  /** The URL being opened. */
  url: URL;
  /** Parameters of the route the guard is attached to (and of its ancestors). */
  params: Params;
  /** Aborted when the user navigates elsewhere before the guards finish. */
  signal: AbortSignal;
}

/** A path to go to instead, or nothing to let the navigation through. */
export type GuardOutcome = string | undefined | void;
export type Guard = (context: GuardContext) => GuardOutcome | Promise<GuardOutcome>;

/** A screen module, loaded when its route is first opened (one bundle chunk per screen). */
export type ScreenLoader = () => Promise<{ default: ComponentType }>;

export interface PlaceholderProps {
  title: MessageKey;
  /** 1 for a top-level route; used to pick the heading level. */
  depth: number;
  hasChildren: boolean;
}

export interface RouterParts {
  screens: Readonly<Record<ScreenName, ScreenLoader>>;
  /** Layouts load lazily too: the console's frame is not needed to draw the sign-in page. */
  layouts: Readonly<Record<LayoutName, ScreenLoader>>;
  guards: Readonly<Record<GuardName, Guard>>;
  placeholder: ComponentType<PlaceholderProps>;
  /** Wraps every route: the place for things that need the router (event listeners, dialogs). */
  root: ComponentType;
  /** Shown while the first route's guards and screen load. */
  fallback: ComponentType;
  /** Shown when a guard or a screen fails, and for a reserved parameter value (404). */
  error: ComponentType;
}

/** What each built route carries in its `handle`, read back with `useMatches()`. */
export interface RouteHandle {
  name: string;
  aliases: readonly string[];
  title: MessageKey;
  guards: readonly GuardName[];
  placeholder: boolean;
}
