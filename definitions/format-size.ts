/**
 * Storage sizes in 1000-based units (bytes, kB, MB, GB, TB, PB). The unit names come
 * from the browser's Intl data, so they follow the locale without entries in the catalogue.
 */
export const sizeUnits = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

export function formatSize(bytes: number, locale = 'en'): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < sizeUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: sizeUnits[unit],
    // "12 bytes" reads better than "12 byte"; the larger units read best short ("1.5 MB").
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : value < 10 ? 2 : 1,
  }).format(value);
}
