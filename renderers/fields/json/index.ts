/** How the console draws JSON fields. */
import { Braces } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { JsonDisplay } from './Display.tsx';
import { JsonEditor } from './Editor.tsx';

export const jsonRenderer: FieldRenderer = {
  Editor: JsonEditor,
  Display: JsonDisplay,
  icon: Braces,
  columnWidth: 220,
  fullWidth: true,
};
