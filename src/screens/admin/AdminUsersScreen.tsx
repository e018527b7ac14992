/**
 * All users of the installation (docs/admin.md "Users"): a server-paged table searched by name or
 * e-mail, filtered by verified, disabled and super-admin, sorted by the column headers; each row's
 * menu resends the verification mail, disables or enables the user and grants or revokes
 * super-admin. Search, sort, order, page and the filters live in the URL, so a view can be linked
 * and the back button walks the pages.
 */
import '../../../definitions/messages/areas/admin.ts';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Search } from 'lucide-react';
import { useSearchParams } from 'react-router';
import type { AdminUserSort } from '../../../definitions/admin.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { useDebouncedValue } from '../../../renderers/fields/use-debounced-value.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { AdminUser } from '../../api/admin.ts';
import { useAdminUsers, useResendVerification } from '../../api/admin-queries.ts';
import { useMe } from '../../api/queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { EmailText } from './users/EmailText.tsx';
import { ConfirmUserActionDialog, type ConfirmedAction } from './users/ConfirmUserActionDialog.tsx';
import { UserActionsMenu, type UserAction } from './users/UserActionsMenu.tsx';
import { ADMIN_USERS_PER_PAGE, firstOrder, userFilters, userQueryOf, type UserFilter } from './users/user-query.ts';

/** A pause this long in the search box makes one request (as the project's users search). */
const SEARCH_DEBOUNCE_MS = 300;

const filterLabels: Record<UserFilter, MessageKey> = {
  verified: 'admin.users.filter.verified',
  disabled: 'admin.users.filter.disabled',
  superAdmin: 'admin.users.filter.superAdmin',
};

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const fullDateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short' });

export default function AdminUsersScreen() {
  const format = useFormat();
  const id = useId();
  const problemMessage = useProblemMessage();
  const [params, setParams] = useSearchParams();
  const query = userQueryOf(params);
  const users = useAdminUsers(query);
  const { data: me } = useMe();
  const resend = useResendVerification();
  const [pending, setPending] = useState<{ action: ConfirmedAction; user: AdminUser } | null>(null);

  /** Changes the URL's state; any change but paging starts again at page 1. */
  const update = (changes: Record<string, string | undefined>, { replace = false } = {}) => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === '') next.delete(key);
          else next.set(key, value);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace },
    );
  };

  const [term, setTerm] = useState(query.search ?? '');
  const settled = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const urlSearch = (params.get('search') ?? '').trim();
  /** The search this screen last put in the URL (the router takes a moment to show it). */
  const written = useRef(urlSearch);
  useEffect(() => {
    if (settled === written.current) return;
    written.current = settled;
    update({ search: settled }, { replace: true });
    // Only a settled search changes the URL; the URL's own changes (back, paging) do not re-run this.
  }, [settled]);
  useEffect(() => {
    // The URL's search changed by itself (back, forward, a link): the box shows it.
    if (urlSearch === written.current) return;
    written.current = urlSearch;
    setTerm(urlSearch);
  }, [urlSearch]);

  const onAction = (user: AdminUser, action: UserAction) => {
    if (action !== 'resend') return setPending({ action, user });
    resend.mutate(user.id, {
      onSuccess: () => void notify({ kind: 'success', title: format('admin.users.resentToast', { email: user.email }) }),
      onError: (error) => void notify({ kind: 'error', title: format('admin.users.resendFailed', { reason: problemMessage(error) }) }),
    });
  };

  const page = users.data;
  const total = page?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_USERS_PER_PAGE));
  const from = total === 0 || !page ? 0 : (query.page - 1) * ADMIN_USERS_PER_PAGE + 1;
  const to = page ? from + page.users.length - (page.users.length ? 1 : 0) : 0;

  const sortHeader = (sort: AdminUserSort, label: MessageKey, extra?: ReactNode) => {
    const active = query.sort === sort;
    const Icon = !active ? ArrowUpDown : query.order === 'asc' ? ArrowUp : ArrowDown;
    return (
      <th scope="col" aria-sort={active ? (query.order === 'asc' ? 'ascending' : 'descending') : undefined}>
        <button
          type="button"
          className="admin-sort"
          onClick={() => update({ sort, order: active ? (query.order === 'asc' ? 'desc' : 'asc') : firstOrder(sort) })}
        >
          {format(label)}
          <Icon aria-hidden="true" size={14} />
        </button>
        {extra}
      </th>
    );
  };

  return (
    <div className="admin-screen">
      <div className="admin-toolbar">
        <h2 id={`${id}-title`}>{format('route.userAdmin.title')}</h2>
      </div>
      <div className="admin-filters" role="search" aria-label={format('admin.users.searchArea')}>
        <div className="admin-search">
          <label className="field-label" htmlFor={`${id}-search`}>
            {format('admin.users.search')}
          </label>
          <div className="admin-search-box">
            <Search aria-hidden="true" size={16} className="admin-search-icon" />
            <input
              id={`${id}-search`}
              className="input"
              type="search"
              autoComplete="off"
              spellCheck={false}
              maxLength={200}
              placeholder={format('admin.users.searchPlaceholder')}
              value={term}
              onChange={(event) => setTerm(event.target.value)}
            />
          </div>
        </div>
        {userFilters.map((filter) => (
          <div key={filter} className="admin-filter">
            <label className="field-label" htmlFor={`${id}-${filter}`}>
              {format(filterLabels[filter])}
            </label>
            <select
              id={`${id}-${filter}`}
              className="input"
              value={query[filter] === undefined ? '' : String(query[filter])}
              onChange={(event) => update({ [filter]: event.target.value })}
            >
              <option value="">{format('admin.users.filter.any')}</option>
              <option value="true">{format('admin.users.filter.yes')}</option>
              <option value="false">{format('admin.users.filter.no')}</option>
            </select>
          </div>
        ))}
      </div>

      {users.isError ? (
        <p role="alert" className="callout-error">
          {format('admin.users.loadFailed', { reason: problemMessage(users.error) })}
        </p>
      ) : page === undefined ? (
        <p className="muted" role="status">
          {format('app.loading')}
        </p>
      ) : page.users.length === 0 ? (
        <p className="empty-state" role="status">
          {query.search ? format('admin.users.noMatch', { search: query.search }) : format('admin.users.empty')}
        </p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table admin-table" aria-labelledby={`${id}-title`} aria-busy={users.isFetching || undefined}>
              <thead>
                <tr>
                  {sortHeader('username', 'admin.users.username')}
                  {sortHeader('email', 'admin.users.email')}
                  <th scope="col">{format('admin.users.verified')}</th>
                  <th scope="col">{format('admin.users.organizations')}</th>
                  {sortHeader('createdDate', 'admin.users.created')}
                  {sortHeader('lastLoggedIn', 'admin.users.lastSignIn')}
                  <th scope="col">
                    <span className="visually-hidden">{format('admin.users.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.users.map((user) => (
                  <tr key={user.id} data-user={user.username}>
                    <th scope="row" className="admin-user-name">
                      {user.username}
                      {user.disabled ? <span className="badge badge-disabled">{format('admin.users.disabledBadge')}</span> : null}
                      {user.superAdmin || user.configuredSuperAdmin ? <span className="badge badge-beta">{format('admin.users.superAdminBadge')}</span> : null}
                    </th>
                    <td>
                      <EmailText email={user.email} />
                    </td>
                    <td>{format(user.verified ? 'admin.users.yes' : 'admin.users.no')}</td>
                    <td>
                      {user.organizations.map((organization) => organization.name).join(', ')}
                      {user.organizationCount > user.organizations.length ? (
                        <span className="muted"> {format('admin.users.moreOrganizations', { count: user.organizationCount - user.organizations.length })}</span>
                      ) : null}
                      {user.organizationCount === 0 ? <span className="muted">{format('admin.users.none')}</span> : null}
                    </td>
                    <td className="admin-date">
                      <time dateTime={user.createdDate} title={fullDateFormat.format(new Date(user.createdDate))}>
                        {dateFormat.format(new Date(user.createdDate))}
                      </time>
                    </td>
                    <td className="admin-date">
                      {user.lastLoggedIn ? (
                        <time dateTime={user.lastLoggedIn} title={fullDateFormat.format(new Date(user.lastLoggedIn))}>
                          {dateFormat.format(new Date(user.lastLoggedIn))}
                        </time>
                      ) : (
                        <span className="muted">{format('admin.users.never')}</span>
                      )}
                    </td>
                    <td className="cell-actions">
                      <UserActionsMenu user={user} self={me?._id === user.id} onAction={(action) => onAction(user, action)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="admin-pager" aria-label={format('admin.users.pages')}>
            <button type="button" className="icon-button" aria-label={format('itemList.previous')} disabled={query.page <= 1} onClick={() => update({ page: String(query.page - 1) })}>
              <ChevronLeft aria-hidden="true" size={18} />
            </button>
            <span className="muted" aria-live="polite">
              {format('itemList.range', { from, to, total })}
            </span>
            <button type="button" className="icon-button" aria-label={format('itemList.next')} disabled={query.page >= pages} onClick={() => update({ page: String(query.page + 1) })}>
              <ChevronRight aria-hidden="true" size={18} />
            </button>
          </nav>
        </>
      )}
      <ConfirmUserActionDialog pending={pending} onClose={() => setPending(null)} />
    </div>
  );
}
