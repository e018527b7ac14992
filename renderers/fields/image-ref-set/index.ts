/** How the console draws ImageRefSet fields. */
import { Images } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { ImageRefSetDisplay } from './Display.tsx';
import { ImageRefSetEditor } from './Editor.tsx';
import { AcceptSettings } from '../image-ref/AcceptSettings.tsx';

export const imageRefSetRenderer: FieldRenderer = {
  Editor: ImageRefSetEditor,
  Display: ImageRefSetDisplay,
  Settings: AcceptSettings,
  icon: Images,
  columnWidth: 160,
  fullWidth: true,
};
