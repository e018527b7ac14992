import type { ComponentType } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { DisplayProps } from './display-types.ts';
import type { EditorProps } from './editor-types.ts';
import type { SettingsEditorProps } from './settings-editor-types.ts';

/**
 * How the console draws one field type: each type's `renderers/fields/<type>/index.ts` exports
 * one, and the registry (`index.ts`) holds one per type name, so a type without an editor,
 * display or icon does not compile.
 */
export interface FieldRenderer {
  /** Edits a value on the item page (heavy editors load lazily; `FieldEditor` wraps them in Suspense). */
  Editor: ComponentType<EditorProps>;
  /** Shows a value in lists, cards and read-only places. */
  Display: ComponentType<DisplayProps>;
  /** Edits the type's own settings in the schema builder; absent when the type has none to edit. */
  Settings?: ComponentType<SettingsEditorProps>;
  /** Drawn beside the type's label (decorative). */
  icon: LucideIcon;
  /** Pixels of the item table's column at its 14 px font (absent: the table's default width). */
  columnWidth?: number;
  /** The value needs room: on a wide item page the field takes both columns instead of one. */
  fullWidth?: boolean;
}
