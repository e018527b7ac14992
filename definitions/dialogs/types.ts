/** A message dialog: a title, a text and its buttons, each reported to the screen by id. */
import type { MessageKey } from '../messages/format.ts';

export interface DialogAction {
  id: string;
  label: MessageKey;
  /** The dialog's main action: drawn as the primary button. */
  primary?: boolean;
}

export interface DialogDefinition {
  id: string;
  title: MessageKey;
  description: MessageKey;
  actions: readonly DialogAction[];
  /** A persistent dialog closes only through its actions (no Escape, no outside click). */
  persistent?: boolean;
}
