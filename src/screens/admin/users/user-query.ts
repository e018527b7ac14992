/**
 * The All users screen's state as the URL holds it (`/admin/users?search=…&sort=…&order=…&page=…`
 * and the filters verified, disabled, superAdmin as `true`/`false`), read into the call's query.
 * Anything the server would refuse is dropped, so a hand-edited URL still shows a page.
 */
import { adminUserSorts, type AdminUserSort } from '../../../../definitions/admin.ts';
import type { AdminUserQuery } from '../../../api/admin.ts';

export const ADMIN_USERS_PER_PAGE = 50;
export const userFilters = ['verified', 'disabled', 'superAdmin'] as const;
export type UserFilter = (typeof userFilters)[number];

/** Newest first unless the URL says otherwise; dates start descending, names ascending. */
export const defaultSort: AdminUserSort = 'createdDate';
export const firstOrder = (sort: AdminUserSort): 'asc' | 'desc' => (sort === 'createdDate' || sort === 'lastLoggedIn' ? 'desc' : 'asc');

const flag = (value: string | null): boolean | undefined => (value === 'true' ? true : value === 'false' ? false : undefined);

export function userQueryOf(params: URLSearchParams): Required<Pick<AdminUserQuery, 'sort' | 'order' | 'page' | 'perPage'>> & AdminUserQuery {
  const sortParam = params.get('sort');
  const sort = adminUserSorts.includes(sortParam as AdminUserSort) ? (sortParam as AdminUserSort) : defaultSort;
  const orderParam = params.get('order');
  const order = orderParam === 'asc' || orderParam === 'desc' ? orderParam : firstOrder(sort);
  const page = Math.min(100_000, Math.max(1, Math.trunc(Number(params.get('page'))) || 1));
  const search = (params.get('search') ?? '').trim().slice(0, 200);
  const query: AdminUserQuery & { sort: AdminUserSort; order: 'asc' | 'desc'; page: number; perPage: number } = { sort, order, page, perPage: ADMIN_USERS_PER_PAGE };
  if (search) query.search = search;
  for (const filter of userFilters) {
    const value = flag(params.get(filter));
    if (value !== undefined) query[filter] = value;
  }
  return query;
}
