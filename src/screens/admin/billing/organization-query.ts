/**
 * The billing table's state as the URL holds it (`/admin/billing?search=&status=&sort=&order=&page=`):
 * read into the server's query, and written back with the defaults left out so a plain link
 * is the first page sorted by name. Unknown values fall back to the defaults rather than a 400.
 */
import { adminOrganizationSorts, type AdminOrganizationSort } from '../../../../definitions/admin.ts';
import { billingStatuses, type BillingStatus } from '../../../../definitions/billing/status.ts';
import type { AdminOrganizationQuery } from '../../../api/admin.ts';

export const organizationsPerPage = 50;
const defaultSort: AdminOrganizationSort = 'name';

const isSort = (value: string | null): value is AdminOrganizationSort => adminOrganizationSorts.includes(value as AdminOrganizationSort);
const isStatus = (value: string | null): value is BillingStatus => billingStatuses.includes(value as BillingStatus);

export interface TableState {
  search: string;
  status: BillingStatus | '';
  sort: AdminOrganizationSort;
  order: 'asc' | 'desc';
  page: number;
}

export function readTableState(params: URLSearchParams): TableState {
  const sort = params.get('sort');
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    search: (params.get('search') ?? '').slice(0, 200),
    status: isStatus(status) ? status : '',
    sort: isSort(sort) ? sort : defaultSort,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    page: Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

export function writeTableState(state: TableState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search.trim()) params.set('search', state.search.trim());
  if (state.status) params.set('status', state.status);
  if (state.sort !== defaultSort || state.order !== 'asc') {
    params.set('sort', state.sort);
    params.set('order', state.order);
  }
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

export function serverQuery(state: TableState): AdminOrganizationQuery {
  return {
    ...(state.search.trim() ? { search: state.search.trim() } : {}),
    ...(state.status ? { status: state.status } : {}),
    sort: state.sort,
    order: state.order,
    page: state.page,
    perPage: organizationsPerPage,
  };
}
