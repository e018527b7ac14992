/** GeoPoint: read-only here, drawn by its display; its own editor arrives with the media issue. */
import { ReadOnlyEditor } from '../ReadOnlyEditor.tsx';
import type { EditorProps } from '../editor-types.ts';

export function GeoPointEditor(props: EditorProps) {
  return <ReadOnlyEditor {...props} />;
}
