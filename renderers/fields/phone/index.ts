/** How the console draws Phone fields. */
import { Phone } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { PhoneDisplay } from './Display.tsx';
import { PhoneEditor } from './Editor.tsx';

export const phoneRenderer: FieldRenderer = {
  Editor: PhoneEditor,
  Display: PhoneDisplay,
  icon: Phone,
  columnWidth: 170,
};
