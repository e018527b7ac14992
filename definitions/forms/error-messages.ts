/**
 * The catalogue message shown for each failed JSON Schema keyword, unless a form definition names
 * another for a field. Parameters of the failed keyword (`limit`, …) are passed to the message.
 */
import type { MessageKey } from '../messages/format.ts';

export const defaultErrorMessages: Readonly<Record<string, MessageKey>> = {
  required: 'form.error.required',
  minLength: 'form.error.minLength',
  maxLength: 'form.error.maxLength',
  pattern: 'form.error.pattern',
  format: 'form.error.format',
  enum: 'form.error.enum',
  minimum: 'form.error.minimum',
  maximum: 'form.error.maximum',
  type: 'form.error.invalid',
};

/** Shown for a keyword without a message of its own. */
export const fallbackErrorMessage: MessageKey = 'form.error.invalid';
