/**
 * The schema builder of a collection (content spec §2): the fields of one schema level in order,
 * drag to reorder, the create-new-field picker, per-field attributes and nested schema builders.
 * Work in progress.
 */
import type { Collection, ProjectScope } from '../../../api/content.ts';

export interface SchemaBuilderProps {
  scope: ProjectScope;
  /** The saved collection whose schema is edited. */
  collection: Collection;
}

export function SchemaBuilder(_props: SchemaBuilderProps) {
  return null;
}
