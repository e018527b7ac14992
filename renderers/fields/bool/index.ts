/** How the console draws Bool fields. */
import { ToggleLeft } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { BoolDisplay } from './Display.tsx';
import { BoolEditor } from './Editor.tsx';
import { BoolSettings } from './Settings.tsx';

export const boolRenderer: FieldRenderer = {
  Editor: BoolEditor,
  Display: BoolDisplay,
  Settings: BoolSettings,
  icon: ToggleLeft,
  columnWidth: 110,
};
