/**
 * RichText: the TipTap editor (TipTapEditor.tsx), loaded on first use in a chunk of its own so
 * the console's other screens never carry it. The item form's frame shows "Loading the editor…"
 * meanwhile (FieldEditor's Suspense); used alone, it waits in its own.
 */
import { lazy, Suspense } from 'react';
import { useFormat } from '../../messages/use-format.ts';
import type { EditorProps } from '../editor-types.ts';

const LazyTipTapEditor = lazy(() => import('./TipTapEditor.tsx').then((module) => ({ default: module.TipTapEditor })));

export function RichTextEditor(props: EditorProps) {
  const format = useFormat();
  return (
    <Suspense fallback={<span className="field-help">{format('editor.loading')}</span>}>
      <LazyTipTapEditor {...props} />
    </Suspense>
  );
}
