import type { SchemaField } from '../../definitions/field-types/index.ts';

/**
 * What every field editor gets. The item page renders any field through `editorFor(field)` with
 * these props (or through `FieldEditor`, which adds the label, help text and required marker).
 *
 * Values are the item's values as the API reads and writes them: an editor emits only values its
 * type's `validate` would accept, and holds back input it cannot turn into one (letters in a
 * number, broken JSON), telling the page through `onProblem` so the page can refuse to save.
 */
export interface EditorProps {
  field: SchemaField;
  /** The current value (null or undefined: not set). */
  value: unknown;
  /** A new value for the field; null clears it. */
  onChange(value: unknown): void;
  onBlur?(): void;
  /** A message from outside the editor (required, refused by the server), shown under it. */
  error?: string | undefined;
  disabled?: boolean | undefined;
  /** The field is required: the editor marks its control `aria-required`. */
  required?: boolean | undefined;
  /** Id of the editor's focusable control, so that `<label htmlFor={id}>` names it. */
  id: string;
  /** Id of the element naming the field, for editors whose control is a group or a button. */
  labelledBy?: string | undefined;
  /** Ids of help text around the editor, joined with the editor's own messages. */
  describedBy?: string | undefined;
  /**
   * Told whenever the input the editor holds back changes: a message while the shown input is
   * not a value the field can store, undefined once it is (and when the editor goes away).
   */
  onProblem?(message: string | undefined): void;
}
