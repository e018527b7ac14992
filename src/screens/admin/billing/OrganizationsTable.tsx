/**
 * Every organization's billing as one server-paged table (`GET admin/organizations`): a plain
 * table whose sortable headers are buttons with `aria-sort`, a debounced search and a status
 * filter above it, pages below. Its state lives in the URL (organization-query.ts), so a link or
 * a reload shows the same page.
 */
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { AdminOrganizationSort } from '../../../../definitions/admin.ts';
import { billingStatuses } from '../../../../definitions/billing/status.ts';
import type { MessageKey } from '../../../../definitions/messages/format.ts';
import { routePath } from '../../../../definitions/route-path.ts';
import { useDebouncedValue } from '../../../../renderers/fields/use-debounced-value.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import type { AdminOrganization } from '../../../../definitions/schemas/admin.ts';
import { useAdminOrganizations } from '../../../api/admin-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';
import { formatDay } from './day.ts';
import { balanceText, creditText } from './org-money.ts';
import { organizationsPerPage, readTableState, serverQuery, writeTableState, type TableState } from './organization-query.ts';
import { StatusBadge, statusLabel } from './StatusBadge.tsx';
import { useWhitelistChange } from './use-whitelist-change.ts';

const searchDelayMs = 300;

interface Column {
  label: MessageKey;
  sort?: AdminOrganizationSort;
  numeric?: boolean;
}

const columns: readonly Column[] = [
  { label: 'admin.billing.column.name', sort: 'name' },
  { label: 'admin.billing.column.plan', sort: 'plan' },
  { label: 'admin.billing.column.status', sort: 'status' },
  { label: 'admin.billing.column.seats', sort: 'seats', numeric: true },
  { label: 'admin.billing.column.nextBillingDate', sort: 'nextBillingDate' },
  { label: 'admin.billing.column.balance', sort: 'balance', numeric: true },
  { label: 'admin.billing.column.credit', sort: 'credit', numeric: true },
  { label: 'admin.billing.column.whitelisted' },
];

export function OrganizationsTable() {
  const format = useFormat();
  const id = useId();
  const problemMessage = useProblemMessage();
  const [params, setParams] = useSearchParams();
  const state = readTableState(params);
  const page = useAdminOrganizations(serverQuery(state));
  const [text, setText] = useState(state.search);
  const settled = useDebouncedValue(text, searchDelayMs);

  const go = (next: Partial<TableState>, replace = false) => setParams(writeTableState({ ...state, ...next }), { replace });

  useEffect(() => {
    // A new search starts at the first page; typing replaces the history entry rather than adding one per pause.
    if (settled.trim() !== state.search) go({ search: settled, page: 1 }, true);
    // Only a settled search moves the URL; the rest of the state is read afresh on each render.
  }, [settled]);

  const sortBy = (sort: AdminOrganizationSort) =>
    go({ sort, order: state.sort === sort && state.order === 'asc' ? 'desc' : 'asc', page: 1 });

  const data = page.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / organizationsPerPage)) : 1;
  const from = data && data.total > 0 ? (data.page - 1) * organizationsPerPage + 1 : 0;
  const to = data ? Math.min(data.total, (data.page - 1) * organizationsPerPage + data.organizations.length) : 0;

  return (
    <section className="admin-organizations" aria-labelledby={`${id}-caption`}>
      <div className="admin-toolbar" role="search">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-search`}>
            {format('admin.billing.search')}
          </label>
          <input
            id={`${id}-search`}
            className="input"
            type="search"
            value={text}
            maxLength={200}
            autoComplete="off"
            aria-describedby={`${id}-search-hint`}
            onChange={(event) => setText(event.target.value)}
          />
          <p id={`${id}-search-hint`} className="field-help">
            {format('admin.billing.searchHint')}
          </p>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-status`}>
            {format('admin.billing.statusFilter')}
          </label>
          <select
            id={`${id}-status`}
            className="input"
            value={state.status}
            onChange={(event) => go({ status: event.target.value as TableState['status'], page: 1 })}
          >
            <option value="">{format('admin.billing.allStatuses')}</option>
            {billingStatuses.map((status) => (
              <option key={status} value={status}>
                {format(statusLabel[status])}
              </option>
            ))}
          </select>
        </div>
        <p className="admin-total muted" role="status" data-testid="organizations-total">
          {data ? format('admin.billing.total', { total: data.total }) : ''}
        </p>
      </div>
      {page.isError ? (
        <p role="alert" className="callout-error">
          {format('admin.billing.readFailed', { reason: problemMessage(page.error) })}
        </p>
      ) : null}
      <div className="table-scroll">
        <table className="table admin-table" aria-busy={page.isFetching || undefined}>
          <caption id={`${id}-caption`} className="visually-hidden">
            {format('admin.billing.caption')}
          </caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <SortHeader key={column.label} column={column} state={state} onSort={sortBy} />
              ))}
            </tr>
          </thead>
          <tbody>
            {data?.organizations.map((organization) => <OrganizationRow key={organization.id} organization={organization} />)}
            {data && data.organizations.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="empty-state">
                  {format('admin.billing.empty')}
                </td>
              </tr>
            ) : null}
            {!data && page.isPending ? (
              <tr>
                <td colSpan={columns.length} className="muted" role="status">
                  {format('admin.billing.loading')}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {data ? (
        <nav className="admin-pager" aria-label={format('admin.billing.pages')}>
          <span className="muted">{format('admin.billing.range', { from: from.toLocaleString('en'), to: to.toLocaleString('en'), total: data.total.toLocaleString('en') })}</span>
          <span>{format('admin.billing.page', { page: data.page.toLocaleString('en'), pages: pages.toLocaleString('en') })}</span>
          <button type="button" className="button button-small" disabled={state.page <= 1} onClick={() => go({ page: state.page - 1 })}>
            {format('admin.billing.previous')}
          </button>
          <button type="button" className="button button-small" disabled={state.page >= pages} onClick={() => go({ page: state.page + 1 })}>
            {format('admin.billing.next')}
          </button>
        </nav>
      ) : null}
    </section>
  );
}

function SortHeader({ column, state, onSort }: { column: Column; state: TableState; onSort: (sort: AdminOrganizationSort) => void }) {
  const format = useFormat();
  const className = column.numeric ? 'cell-number' : undefined;
  if (!column.sort) {
    return (
      <th scope="col" className={className}>
        {format(column.label)}
      </th>
    );
  }
  const sort = column.sort;
  const active = state.sort === sort;
  const Icon = active ? (state.order === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <th scope="col" className={className} aria-sort={active ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="admin-sort" onClick={() => onSort(sort)}>
        {format(column.label)}
        <Icon aria-hidden="true" size={14} className={active ? undefined : 'admin-sort-idle'} />
      </button>
    </th>
  );
}

function OrganizationRow({ organization }: { organization: AdminOrganization }) {
  const format = useFormat();
  const { change, pending } = useWhitelistChange();
  const { whitelisted, name } = organization;
  return (
    <tr data-organization={organization.id}>
      <th scope="row">
        <Link to={routePath('adminOrgSettings', { organizationID: organization.id })}>{name}</Link>
      </th>
      <td>{organization.planName}</td>
      <td>
        <StatusBadge status={organization.status} />
      </td>
      <td className="cell-number">{organization.seats}</td>
      <td className="cell-nowrap">{organization.nextBillingDate ? formatDay(organization.nextBillingDate) : <span className="muted">{format('admin.billing.notSet')}</span>}</td>
      <td className="cell-number">{balanceText(organization)}</td>
      <td className="cell-number" data-testid="organization-credit">
        {creditText(organization)}
      </td>
      <td className="cell-nowrap">
        <span className="admin-whitelisted">{format(whitelisted ? 'admin.billing.yes' : 'admin.billing.no')}</span>
        <button
          type="button"
          className="button button-small"
          aria-label={format(whitelisted ? 'admin.billing.whitelistRemoveLabel' : 'admin.billing.whitelistAddLabel', { name })}
          aria-disabled={pending || undefined}
          onClick={() => {
            if (!pending) void change(organization.id, name, !whitelisted);
          }}
        >
          {format(whitelisted ? 'admin.billing.whitelistRemove' : 'admin.billing.whitelistAdd')}
        </button>
      </td>
    </tr>
  );
}
