import { useEffect, useState } from 'react';
import { useMatches } from 'react-router';
import { useFormat } from '../../renderers/messages/use-format.ts';
import type { RouteHandle } from '../../renderers/router/types.ts';

/** Names the page after its innermost route, and returns the name for the route announcer. */
export function useDocumentTitle(): string {
  const format = useFormat();
  const matches = useMatches();
  const handle = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.title)?.handle as RouteHandle | undefined;
  const page = handle ? format(handle.title) : '';
  const title = page ? format('route.pageTitle', { page, app: format('app.name') }) : format('app.name');
  useEffect(() => {
    document.title = title;
  }, [title]);
  return page;
}
