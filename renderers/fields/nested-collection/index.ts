/** How the console draws NestedCollection fields. */
import { FolderTree } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { NestedCollectionDisplay } from './Display.tsx';
import { NestedCollectionEditor } from './Editor.tsx';

export const nestedCollectionRenderer: FieldRenderer = {
  Editor: NestedCollectionEditor,
  Display: NestedCollectionDisplay,
  icon: FolderTree,
  columnWidth: 150,
  fullWidth: true,
};
