/**
 * Makes a formatter over one catalogue of ICU messages. Compiled messages are cached, so each is
 * parsed once. The console builds one over `en.json`; tests build one over a changed catalogue.
 */
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';

export type MessageValues = Record<string, PrimitiveType>;
export type Formatter<K extends string = string> = (key: K, values?: MessageValues) => string;

export function createFormatter<K extends string>(catalogue: Readonly<Record<K, string>>, locale = 'en'): Formatter<K> {
  const compiled = new Map<string, IntlMessageFormat>();
  return (key, values) => {
    let format = compiled.get(key);
    if (!format) {
      const source = catalogue[key];
      // A key missing from a catalogue shows as itself rather than breaking the screen.
      if (source === undefined) return key;
      format = new IntlMessageFormat(source, locale, undefined, { ignoreTag: true });
      compiled.set(key, format);
    }
    return String(format.format(values));
  };
}
