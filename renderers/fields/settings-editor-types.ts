import type { FieldDraft, FieldDraftChanges } from '../../definitions/field-draft-rules.ts';
import type { FieldDraftEvent } from '../../machines/field-draft.ts';
import type { Collection, ProjectScope } from '../../src/api/content.ts';

/**
 * What a field type's settings editor gets in the schema builder: the field's draft, a way to
 * change it, and the problems of its settings once the person has touched them.
 */
export interface SettingsEditorProps {
  /** Prefix of every control's id. */
  idBase: string;
  draft: FieldDraft;
  send: (event: FieldDraftEvent) => void;
  disabled: boolean;
  /** The collection the field belongs to. */
  collectionID: string;
  /** The project's collections (undefined while they load). */
  collections: readonly Collection[] | undefined;
  /** The project, for settings that upload files (a rich text field's script). */
  scope: ProjectScope;
  change: (changes: FieldDraftChanges) => void;
  /** The message of the problem at `path` once the person has touched it, else undefined. */
  problemAt: (path: string) => string | undefined;
  touch: (path: string) => void;
}
