/**
 * What some editors need from the page around them: the project to search linked items in, the
 * item being edited, and how to open its nested collections. The item page provides it once for
 * its form (the ItemRef picker opens its linked-item dialog itself, in this project).
 */
import { createContext, useContext } from 'react';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { Item, ProjectScope } from '../../src/api/content.ts';

/** One linked item of an ItemRef value. */
export interface LinkedItemRef {
  itemRefID: string;
  value?: string;
}

export interface EditorEnvironment {
  /** The project the item is in; without it, pickers cannot search. */
  scope?: ProjectScope;
  /** The item as last saved; absent for a new item. */
  item?: Item;
  /** Opens a nested collection of the saved item (the page folds it out beside the item). */
  onOpenNested?(field: SchemaField): void;
  /** The collection's text direction (its RTL switch); written-text editors follow it. */
  direction?: TextDirection;
}

export type TextDirection = 'rtl' | 'ltr';

export const EditorEnvironmentContext = createContext<EditorEnvironment>({});

/** Provides the editors' environment to a form. */
export const EditorEnvironmentProvider = EditorEnvironmentContext.Provider;

export function useEditorEnvironment(): EditorEnvironment {
  return useContext(EditorEnvironmentContext);
}
