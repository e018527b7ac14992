/** How the console draws PlainText fields. */
import { Type } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { PlainTextDisplay } from './Display.tsx';
import { PlainTextEditor } from './Editor.tsx';
import { PlainTextSettings } from './Settings.tsx';

export const plainTextRenderer: FieldRenderer = {
  Editor: PlainTextEditor,
  Display: PlainTextDisplay,
  Settings: PlainTextSettings,
  icon: Type,
  columnWidth: 200,
};
