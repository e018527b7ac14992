/**
 * The list's layout: the `layout` query parameter (top-level lists), else the one chosen in this
 * list, else the one saved with the collection (shared by the team), else the table. Choosing one
 * writes it into the address of a top-level list and, with the right to change the collection,
 * saves it for the team.
 */
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { layoutKindOf } from '../../../renderers/layouts/index.ts';
import type { LayoutKind } from '../../../renderers/layouts/types.ts';
import type { ProjectScope } from '../../api/content.ts';
import { useLayoutSettings, useSaveLayoutSettings } from '../../api/layout-queries.ts';

export interface ListLayoutOptions {
  scope: ProjectScope;
  collectionID: string;
  nestedPath: string;
  /** A nested or embedded list ignores and never writes the address's layout. */
  topLevel: boolean;
  canUpdate: boolean;
  /** The layout chosen in this list (the item list machine's `layout`), and how to choose one. */
  chosen: string | undefined;
  onChosen: (kind: LayoutKind) => void;
}

export function useListLayout({ scope, collectionID, nestedPath, topLevel, canUpdate, chosen, onChosen }: ListLayoutOptions) {
  const [searchParams, setSearchParams] = useSearchParams();
  const settings = useLayoutSettings(scope, collectionID, nestedPath);
  const save = useSaveLayoutSettings(scope, collectionID, nestedPath);
  const addressLayout = topLevel ? layoutKindOf(searchParams.get('layout')) : undefined;
  const kind: LayoutKind = addressLayout ?? layoutKindOf(chosen) ?? settings.data?.layout ?? 'table';
  // The address's layout stays chosen when an item page opened from it closes to the plain list address.
  useEffect(() => {
    if (addressLayout) onChosen(addressLayout);
  }, [addressLayout]);
  const choose = (next: LayoutKind) => {
    onChosen(next);
    if (topLevel) {
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          params.set('layout', next);
          return params;
        },
        { replace: true },
      );
    }
    if (canUpdate && settings.data?.layout !== next) save.mutate({ layout: next });
  };
  return { kind, choose, settings, save };
}
