/**
 * Formats a message of the catalogue (ICU syntax) with its parameters. Shared by the console and
 * the server (mail texts), so every product text lives in one catalogue.
 */
import { createFormatter, type Formatter, type MessageValues } from './create-formatter.ts';
import en from './en.json' with { type: 'json' };

/**
 * The catalogue is en.json plus the areas of areas/: texts of screens only some people open (the
 * admin area, Studio, Mail, Integrations, Functions, the Import Items dialog), kept out of the bundle every page loads (the sign-in page has a size
 * budget: docs/console-delivery.md). An area's screens import its module (areas/admin.ts, …),
 * which adds its texts before they render; the server and tests load every area (all.ts).
 */
type AreaKey = keyof typeof import('./areas/admin.json') | keyof typeof import('./areas/studio.json') | keyof typeof import('./areas/mail.json') | keyof typeof import('./areas/integrations.json') | keyof typeof import('./areas/functions.json') | keyof typeof import('./areas/item-import.json');
export type MessageKey = keyof typeof en | AreaKey;
export type { MessageValues };

const catalogue: Record<string, string> = { ...en };

/** Adds an area's texts to the catalogue (areas/*.ts call it once, when their screens load). */
export function registerMessages(area: Readonly<Record<string, string>>): void {
  Object.assign(catalogue, area);
}
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
