/** How the console draws Link fields. */
import { Globe } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { LinkDisplay } from './Display.tsx';
import { LinkEditor } from './Editor.tsx';

export const linkRenderer: FieldRenderer = {
  Editor: LinkEditor,
  Display: LinkDisplay,
  icon: Globe,
  columnWidth: 220,
};
