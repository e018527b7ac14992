/**
 * Auth → Users: the project's app users, a page at a time and
 * searched by e-mail or phone; one user's details (e-mail or phone, created, last login, groups),
 * a password-reset mail, changing the user's groups (a member who may update ticks the project's
 * groups and saves: "User groups have been updated" / "Could not update the user's groups
 * [reason]"), and deleting the user ("User has been deleted" / "Could not delete user [reason]").
 */
import { useId, useState } from 'react';
import { ChevronLeft, ChevronRight, Search, UserPlus } from 'lucide-react';
import newProjectUserForm from '../../../definitions/forms/new-project-user.ts';
import validateNewProjectUser from '../../../definitions/forms/new-project-user.ts?validator';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { PROJECT_USERS_PER_PAGE } from '../../../definitions/user-groups.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useDebouncedValue } from '../../../renderers/fields/use-debounced-value.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { ProjectUser, UserGroup } from '../../api/project-users.ts';
import { useAddProjectUser, useDeleteProjectUser, useProjectUser, useProjectUsers, useSendPasswordReset, useSetUserGroups, useUserGroups } from '../../api/project-users-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { problemFieldErrors } from '../../shell/problem-field-errors.ts';
import { useProjectActions, useProjectIds } from '../project/project-context.ts';
import { AuthHeading, userName } from './AuthHeading.tsx';
import './auth.css';

/** A pause this long in the search box makes one request (the item list's search waits 500 ms; pickers 300). */
const SEARCH_DEBOUNCE_MS = 300;

type Open = { kind: 'view'; user: ProjectUser } | { kind: 'delete'; user: ProjectUser } | { kind: 'add' } | null;

export default function ProjectUsersScreen() {
  const format = useFormat();
  const id = useId();
  const scope = useProjectIds();
  const actions = useProjectActions();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const settled = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = useProjectUsers(scope, { pageNumber: page, perPage: PROJECT_USERS_PER_PAGE, search: settled });
  const [open, setOpen] = useState<Open>(null);
  const when = (value: string | null | undefined) => (value ? formatDateTime(value) : format('projectUsers.never'));

  const users = query.data?.users ?? [];
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PROJECT_USERS_PER_PAGE));
  const from = total === 0 ? 0 : (page - 1) * PROJECT_USERS_PER_PAGE + 1;
  const to = Math.min(total, from + users.length - 1);

  return (
    <section className="panel auth-screen" aria-labelledby={`${id}-title`}>
      <AuthHeading id={`${id}-title`} title={format('projectUsers.title')}>
        {actions.create ? (
          <button type="button" className="button button-primary" onClick={() => setOpen({ kind: 'add' })}>
            <UserPlus aria-hidden="true" size={16} />
            {format('projectUsers.add.open')}
          </button>
        ) : null}
      </AuthHeading>
      <p className="muted">{format('projectUsers.intro')}</p>
      <div className="auth-search">
        <label className="visually-hidden" htmlFor={`${id}-search`}>
          {format('projectUsers.search')}
        </label>
        <Search aria-hidden="true" size={16} className="auth-search-icon" />
        <input
          id={`${id}-search`}
          className="input"
          type="search"
          autoComplete="off"
          placeholder={format('projectUsers.searchPlaceholder')}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
      </div>

      {query.isError ? (
        <p role="alert" className="callout-error">
          {format('projectUsers.loadFailed')}
        </p>
      ) : query.data === undefined ? (
        <p className="muted" role="status">
          {format('projectUsers.loading')}
        </p>
      ) : users.length === 0 ? (
        <p className="muted" role="status">
          {settled ? format('projectUsers.noMatch', { search: settled }) : format('projectUsers.empty')}
        </p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table" aria-labelledby={`${id}-title`} aria-busy={query.isFetching || undefined}>
              <thead>
                <tr>
                  <th scope="col">{format('projectUsers.identity')}</th>
                  <th scope="col">{format('projectUsers.created')}</th>
                  <th scope="col">{format('projectUsers.lastLogin')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{format('projectUsers.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.map((user) => (
                  <tr key={user.userID}>
                    <th scope="row" className="auth-user-name">
                      {userName(user)}
                    </th>
                    <td>{when(user.createdDate)}</td>
                    <td>{when(user.lastLoggedIn)}</td>
                    <td className="cell-actions auth-row-actions">
                      <button type="button" className="button button-small" aria-label={format('projectUsers.viewOf', { name: userName(user) })} onClick={() => setOpen({ kind: 'view', user })}>
                        {format('projectUsers.view')}
                      </button>
                      {actions.delete ? (
                        <button
                          type="button"
                          className="button button-small button-danger"
                          aria-label={format('projectUsers.deleteOf', { name: userName(user) })}
                          onClick={() => setOpen({ kind: 'delete', user })}
                        >
                          {format('projectUsers.delete.confirm')}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="auth-pager" aria-label={format('projectUsers.pages')}>
            <button type="button" className="icon-button" aria-label={format('itemList.previous')} disabled={page <= 1} onClick={() => setPage(page - 1)}>
              <ChevronLeft aria-hidden="true" size={18} />
            </button>
            <span className="muted" aria-live="polite">
              {format('itemList.range', { from, to, total })}
            </span>
            <button type="button" className="icon-button" aria-label={format('itemList.next')} disabled={page >= pages} onClick={() => setPage(page + 1)}>
              <ChevronRight aria-hidden="true" size={18} />
            </button>
          </nav>
        </>
      )}

      <AddUserDialog open={open?.kind === 'add'} onClose={() => setOpen(null)} />
      <UserDialog
        user={open?.kind === 'view' ? open.user : null}
        canDelete={actions.delete}
        canUpdate={actions.update}
        onClose={() => setOpen(null)}
        onDelete={(user) => setOpen({ kind: 'delete', user })}
      />
      <DeleteUserDialog
        user={open?.kind === 'delete' ? open.user : null}
        onClose={() => setOpen(null)}
        onDeleted={() => {
          // The last user of a later page is gone: show the page before.
          if (users.length === 1 && page > 1) setPage(page - 1);
        }}
      />
    </section>
  );
}

function UserDialog({
  user,
  canDelete,
  canUpdate,
  onClose,
  onDelete,
}: {
  user: ProjectUser | null;
  canDelete: boolean;
  canUpdate: boolean;
  onClose: () => void;
  onDelete: (user: ProjectUser) => void;
}) {
  const format = useFormat();
  const scope = useProjectIds();
  const problemMessage = useProblemMessage();
  // The list's row is shown at once; the user as read now replaces it.
  const fresh = useProjectUser(scope, user?.userID ?? null);
  const groups = useUserGroups(scope, { enabled: user !== null });
  const reset = useSendPasswordReset(scope);
  const shown = fresh.data ?? user;
  const name = shown ? userName(shown) : '';
  const groupNames = (shown?.userGroups ?? []).map((groupID) => groups.data?.find((group) => group.groupID === groupID)?.name ?? groupID);
  const when = (value: string | null | undefined) => (value ? formatDateTime(value) : format('projectUsers.never'));

  return (
    <ModalDialog
      open={user !== null}
      onOpenChange={(next) => {
        if (!next) {
          reset.reset();
          onClose();
        }
      }}
      name="projectUser"
      title={name}
    >
      {shown ? (
        <>
          <dl className="auth-details">
            <dt>{format('projectUsers.userID')}</dt>
            <dd className="auth-mono">{shown.userID}</dd>
            {shown.email ? (
              <>
                <dt>{format('projectUsers.email')}</dt>
                <dd>{shown.email}</dd>
              </>
            ) : null}
            {shown.phone ? (
              <>
                <dt>{format('projectUsers.phone')}</dt>
                <dd>{shown.phone}</dd>
              </>
            ) : null}
            {typeof shown.verified === 'boolean' ? (
              <>
                <dt>{format('projectUsers.verified')}</dt>
                <dd>{format(shown.verified ? 'projectUsers.verifiedYes' : 'projectUsers.verifiedNo')}</dd>
              </>
            ) : null}
            <dt>{format('projectUsers.created')}</dt>
            <dd>{when(shown.createdDate)}</dd>
            <dt>{format('projectUsers.lastLogin')}</dt>
            <dd>{when(shown.lastLoggedIn)}</dd>
            {canUpdate ? null : (
              <>
                <dt>{format('projectUsers.groups')}</dt>
                <dd>{groupNames.length ? groupNames.join(', ') : format('projectUsers.noGroups')}</dd>
              </>
            )}
          </dl>
          {canUpdate ? <UserGroupsEditor key={shown.userID} user={shown} groups={groups.data} loadFailed={groups.isError} /> : null}
          {reset.error ? (
            <p role="alert" className="form-alert">
              {problemMessage(reset.error)}
            </p>
          ) : null}
          {shown.email ? null : <p className="field-help">{format('projectUsers.resetNeedsEmail')}</p>}
          <div className="form-actions">
            {canDelete ? (
              <button type="button" className="button button-danger" onClick={() => onDelete(shown)}>
                {format('projectUsers.delete.confirm')}
              </button>
            ) : null}
            <button
              type="button"
              className="button"
              disabled={!shown.email}
              aria-disabled={reset.isPending || undefined}
              onClick={() => {
                if (!shown.email || reset.isPending) return;
                reset.mutate(shown.email, { onSuccess: () => void notify({ kind: 'success', title: format('resetMail.sent') }) });
              }}
            >
              {reset.isPending ? format('projectUsers.sendingReset') : format('projectUsers.sendReset')}
            </button>
            <button type="button" className="button button-primary" onClick={onClose}>
              {format('projectUsers.close')}
            </button>
          </div>
        </>
      ) : null}
    </ModalDialog>
  );
}

/** The user's groups as ticks over the project's groups, saved together with "Save groups". */
function UserGroupsEditor({ user, groups, loadFailed }: { user: ProjectUser; groups: UserGroup[] | undefined; loadFailed: boolean }) {
  const format = useFormat();
  const id = useId();
  const scope = useProjectIds();
  const problemMessage = useProblemMessage();
  const save = useSetUserGroups(scope);
  const current = user.userGroups ?? [];
  // Untouched, the ticks follow the user as last read; a change holds until it is saved.
  const [edited, setEdited] = useState<string[] | null>(null);
  const chosen = edited ?? current;
  const known = new Set((groups ?? []).map((group) => group.groupID));
  // Ids of groups since deleted are dropped on save; they grant nothing.
  const wanted = chosen.filter((groupID) => known.has(groupID));
  const changed = wanted.length !== current.length || wanted.some((groupID) => !current.includes(groupID));

  return (
    <fieldset className="auth-user-groups" aria-describedby={`${id}-help`}>
      <legend className="field-label">{format('projectUsers.groups')}</legend>
      <p id={`${id}-help`} className="field-help">
        {format('projectUsers.groupsHelp')}
      </p>
      {loadFailed ? (
        <p role="alert" className="callout-error">
          {format('userGroups.loadFailed')}
        </p>
      ) : groups === undefined ? (
        <p className="muted" role="status">
          {format('userGroups.loading')}
        </p>
      ) : groups.length === 0 ? (
        <p className="muted">{format('projectUsers.noGroupsYet')}</p>
      ) : (
        <div className="choices">
          {groups.map((group) => (
            <label key={group.groupID} className="choice" htmlFor={`${id}-${group.groupID}`}>
              <input
                id={`${id}-${group.groupID}`}
                type="checkbox"
                checked={chosen.includes(group.groupID)}
                onChange={(event) => {
                  setEdited(event.target.checked ? [...chosen, group.groupID] : chosen.filter((groupID) => groupID !== group.groupID));
                }}
              />
              {group.name}
            </label>
          ))}
        </div>
      )}
      {groups && groups.length > 0 ? (
        <div className="form-actions">
          <button
            type="button"
            className="button"
            disabled={!changed}
            aria-disabled={save.isPending || undefined}
            onClick={() => {
              if (!changed || save.isPending) return;
              save.mutate(
                { userID: user.userID, groupIDs: wanted },
                {
                  onSuccess: () => {
                    setEdited(null);
                    void notify({ kind: 'success', title: format('projectUser.groupsUpdated') });
                  },
                  onError: (error) => void notify({ kind: 'error', title: format('projectUser.groupsUpdateFailed', { reason: problemMessage(error) }) }),
                },
              );
            }}
          >
            {save.isPending ? format('projectUsers.savingGroups') : format('projectUsers.saveGroups')}
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}

/** Adds a user by hand (create flag): e-mail, password, verified or not; the server's refusal stays in the dialog. */
function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const format = useFormat();
  const scope = useProjectIds();
  const add = useAddProjectUser(scope);
  const problemMessage = useProblemMessage();
  const close = () => {
    add.reset();
    onClose();
  };
  return (
    <ModalDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) close();
      }}
      name="addProjectUser"
      title={format('projectUsers.add.title')}
    >
      {({ titleId }) => (
        <FormRenderer
          definition={newProjectUserForm}
          validate={validateNewProjectUser}
          labelledBy={titleId}
          busy={add.isPending}
          error={add.error ? problemMessage(add.error) : null}
          fieldErrors={problemFieldErrors(add.error, newProjectUserForm)}
          defaultValues={{ email: '', password: '', verified: false }}
          intro={<p className="form-intro">{format('projectUsers.add.intro')}</p>}
          onCancel={close}
          onSubmit={(values) => {
            if (add.isPending) return;
            add.mutate(
              { email: String(values.email ?? ''), password: String(values.password ?? ''), verified: values.verified === true },
              {
                onSuccess: () => {
                  void notify({ kind: 'success', title: format('projectUser.added') });
                  close();
                },
              },
            );
          }}
        />
      )}
    </ModalDialog>
  );
}

function DeleteUserDialog({ user, onClose, onDeleted }: { user: ProjectUser | null; onClose: () => void; onDeleted: () => void }) {
  const format = useFormat();
  const scope = useProjectIds();
  const remove = useDeleteProjectUser(scope);
  const problemMessage = useProblemMessage();
  const name = user ? userName(user) : '';
  return (
    <ModalDialog
      open={user !== null}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      name="deleteProjectUser"
      title={format('projectUsers.delete.title', { name })}
      description={format('projectUsers.delete.body')}
      widthPx={500}
    >
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          {format('form.cancel')}
        </button>
        <button
          type="button"
          className="button button-danger"
          aria-disabled={remove.isPending || undefined}
          onClick={() => {
            if (!user || remove.isPending) return;
            remove.mutate(user.userID, {
              onSuccess: () => {
                void notify({ kind: 'success', title: format('projectUser.deleted') });
                onDeleted();
                onClose();
              },
              onError: (error) => {
                void notify({ kind: 'error', title: format('projectUser.deleteFailed', { reason: problemMessage(error) }) });
              },
            });
          }}
        >
          {format('projectUsers.delete.confirm')}
        </button>
      </div>
    </ModalDialog>
  );
}
