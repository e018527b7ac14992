/**
 * What some editors need from the page around them: the project to search linked items in, the
 * item being edited, and the dialogs the page owns. The item page provides it once for its form.
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
  /**
   * Opens the page's dialog to create an item in the field's referenced collection; when it
   * resolves with the new item's link, the picker adds it to the value.
   */
  onCreateLinkedItem?(field: SchemaField): Promise<LinkedItemRef | undefined> | void;
  /** Opens the page's dialog to edit a linked item. */
  onEditLinkedItem?(field: SchemaField, ref: LinkedItemRef): void;
  /** Opens a nested collection of the saved item (the page folds it out beside the item). */
  onOpenNested?(field: SchemaField): void;
}

export const EditorEnvironmentContext = createContext<EditorEnvironment>({});

/** Provides the editors' environment to a form. */
export const EditorEnvironmentProvider = EditorEnvironmentContext.Provider;

export function useEditorEnvironment(): EditorEnvironment {
  return useContext(EditorEnvironmentContext);
}
