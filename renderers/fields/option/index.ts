/** How the console draws Option fields. */
import { List } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { OptionDisplay } from './Display.tsx';
import { OptionEditor } from './Editor.tsx';
import { OptionSettings } from './Settings.tsx';

export const optionRenderer: FieldRenderer = {
  Editor: OptionEditor,
  Display: OptionDisplay,
  Settings: OptionSettings,
  icon: List,
  columnWidth: 160,
};
