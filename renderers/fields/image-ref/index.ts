/** How the console draws ImageRef fields. */
import { Image } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { ImageDisplay } from './Display.tsx';
import { ImageRefEditor } from './Editor.tsx';
import { AcceptSettings } from './AcceptSettings.tsx';

export const imageRefRenderer: FieldRenderer = {
  Editor: ImageRefEditor,
  Display: ImageDisplay,
  Settings: AcceptSettings,
  icon: Image,
  columnWidth: 120,
  fullWidth: true,
};
