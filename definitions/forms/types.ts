/**
 * The shape of a form definition: fields drawn by the generic form renderer, validated by a JSON
 * Schema that the build compiles into a standalone validator (no ajv compiler in the browser).
 */
import type { MessageKey } from '../messages/format.ts';

/** Widgets are looked up by name in the renderer's registry; a new widget is a new entry there. */
export type WidgetName = 'text' | 'select' | 'textarea' | 'switch' | 'number';

export interface FieldOption {
  value: string;
  label: MessageKey;
}

export interface FieldDefinition {
  /** The property of the payload (and of the schema). */
  name: string;
  widget: WidgetName;
  label: MessageKey;
  /** A hint shown under the field. */
  help?: MessageKey;
  /** The input's type for the text widget: email, password, text… */
  inputType?: 'text' | 'email' | 'password' | 'search' | 'tel' | 'url';
  /** Browser autofill hint (https://html.spec.whatwg.org/#autofill). */
  autoComplete?: string;
  /** Choices of the select widget. */
  options?: readonly FieldOption[];
  /**
   * The select's choices come from data (a list of projects, say) that the screen passes to the
   * renderer under the field's name; their texts are data, not catalogue keys.
   */
  dynamicOptions?: boolean;
  /** A first, empty choice of the select widget. */
  placeholder?: MessageKey;
  rows?: number;
  /** Leading and trailing spaces are dropped before validating and sending. */
  trim?: boolean;
  /** The field is shown (and sent) only while another field has this value. */
  visibleWhen?: { field: string; equals: string | boolean };
}

/** Messages for a failed schema keyword, per field: `{ username: { pattern: 'form.error.usernamePattern' } }`. */
export type FieldErrorMessages = Readonly<Record<string, Readonly<Partial<Record<string, MessageKey>>>>>;

export interface JsonSchemaObject {
  type: 'object';
  properties: Readonly<Record<string, object>>;
  required?: readonly string[];
  additionalProperties?: boolean;
  [keyword: string]: unknown;
}

export interface FormDefinition {
  id: string;
  /** Accessible name of the form, and its heading when the screen shows one. */
  title: MessageKey;
  fields: readonly FieldDefinition[];
  /** The payload's JSON Schema; reuse definitions/schemas so the server validates the same way. */
  schema: JsonSchemaObject;
  /** Messages that differ from the defaults of `error-messages.ts`. */
  errorMessages?: FieldErrorMessages;
  submit: MessageKey;
  /** The submit button's text while the request runs. */
  submitting: MessageKey;
  /** The submit button stays disabled while any of these fields is blank (after trimming). */
  submitRequires?: readonly string[];
}
