/**
 * Formats a message of the catalogue (ICU syntax) with its parameters. Shared by the console and
 * the server (mail texts), so every product text lives in one catalogue.
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import en from './en.json' with { type: 'json' };

export type MessageKey = keyof typeof en;
export type MessageValues = Record<string, PrimitiveType>;

const catalogue: Record<string, string> = en;
const compiled = new Map<string, IntlMessageFormat>();

export function hasMessage(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(catalogue, key);
}

export function formatMessage(key: MessageKey, values?: MessageValues, locale = 'en'): string {
  let format = compiled.get(key);
  if (!format) {
    format = new IntlMessageFormat(catalogue[key]!, locale, undefined, { ignoreTag: true });
    compiled.set(key, format);
  }
  return String(format.format(values));
}
