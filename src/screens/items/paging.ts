import { paging } from '../../../definitions/constants.ts';

/** Paging of the item list: page from 1, per-page choices, up to 6 page links. */
export const perPageChoices = paging.perPageOptions;
export const defaultPerPage = paging.defaultPageSize;
/** Nested lists show more per page. */
export const nestedPerPage = paging.nestedPageSize;
/** The server's limit of one page. */
export const perPageMax = paging.perPageMax;
export const pageLinksMax = 6;

export { pageCount } from '../../../machines/item-list.ts';

/** At most `max` consecutive page numbers around the current page. */
export function pageLinks(current: number, pages: number, max = pageLinksMax): number[] {
  const count = Math.min(max, pages);
  let first = Math.max(1, current - Math.floor((count - 1) / 2));
  first = Math.min(first, pages - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}

/** A custom per-page entry keeps digits only. */
export const digitsOnly = (text: string) => text.replace(/\D+/g, '');

/** The per-page number a custom entry stands for, within 1…perPageMax; undefined for none. */
export function customPerPage(text: string): number | undefined {
  const digits = digitsOnly(text);
  if (digits === '') return undefined;
  const n = Number(digits);
  return n >= 1 ? Math.min(n, perPageMax) : undefined;
}
