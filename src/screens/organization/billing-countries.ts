/**
 * The countries a billing address may name: ISO 3166-1 alpha-2 codes with their English names
 * from i18n-iso-countries (about 250), sorted by name. The default is US.
 */
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import type { DataOption } from '../../../renderers/forms/widgets/types.ts';

countries.registerLocale(en);

export const defaultCountry = 'US';

let options: readonly DataOption[] | null = null;

/** Every country as a select choice, by name. */
export function countryOptions(): readonly DataOption[] {
  options ??= Object.entries(countries.getNames('en', { select: 'official' }))
    .map(([value, text]) => ({ value, text }))
    .sort((a, b) => a.text.localeCompare(b.text, 'en'));
  return options;
}

/** The English name of a country code; the code itself when the library does not know it. */
export function countryName(code: string): string {
  return (code && countries.getName(code.toUpperCase(), 'en', { select: 'official' })) || code;
}
