/** How the console draws ItemRef fields. */
import { Link2 } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { ItemRefDisplay } from './Display.tsx';
import { ItemRefEditor } from './Editor.tsx';
import { ItemRefSettings } from './Settings.tsx';

export const itemRefRenderer: FieldRenderer = {
  Editor: ItemRefEditor,
  Display: ItemRefDisplay,
  Settings: ItemRefSettings,
  icon: Link2,
  columnWidth: 180,
};
