/** How the console draws Date fields. */
import { Calendar } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { DateDisplay } from './Display.tsx';
import { DateEditor } from './Editor.tsx';

export const dateRenderer: FieldRenderer = {
  Editor: DateEditor,
  Display: DateDisplay,
  icon: Calendar,
  columnWidth: 270,
};
