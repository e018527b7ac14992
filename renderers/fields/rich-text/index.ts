/** How the console draws RichText fields. */
import { FileText } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { RichTextDisplay } from './Display.tsx';
import { RichTextEditor } from './Editor.tsx';
import { RichTextSettings } from './Settings.tsx';

export const richTextRenderer: FieldRenderer = {
  Editor: RichTextEditor,
  Display: RichTextDisplay,
  Settings: RichTextSettings,
  icon: FileText,
  columnWidth: 260,
  fullWidth: true,
};
