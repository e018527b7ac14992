/**
 * Formats a message of the catalogue (ICU syntax) with its parameters. Shared by the console and
 * the server (mail texts), so every product text lives in one catalogue.
 */
import { createFormatter, type Formatter, type MessageValues } from './create-formatter.ts';
import en from './en.json' with { type: 'json' };

export type MessageKey = keyof typeof en;
export type { MessageValues };

const catalogue: Record<string, string> = en;
const formatters = new Map<string, Formatter>();

export function hasMessage(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(catalogue, key);
}

export function formatMessage(key: MessageKey, values?: MessageValues, locale = 'en'): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = createFormatter(catalogue, locale);
    formatters.set(locale, formatter);
  }
  return formatter(key, values);
}
