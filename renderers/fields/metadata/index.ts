/** How the console draws Metadata fields. */
import { Info } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { MetadataDisplay } from './Display.tsx';
import { MetadataEditor } from './Editor.tsx';

export const metadataRenderer: FieldRenderer = {
  Editor: MetadataEditor,
  Display: MetadataDisplay,
  icon: Info,
};
