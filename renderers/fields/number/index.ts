/** How the console draws Number fields. */
import { Hash } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { NumberDisplay } from './Display.tsx';
import { NumberEditor } from './Editor.tsx';

export const numberRenderer: FieldRenderer = {
  Editor: NumberEditor,
  Display: NumberDisplay,
  icon: Hash,
  columnWidth: 130,
};
