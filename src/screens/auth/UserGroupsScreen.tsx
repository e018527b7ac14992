/**
 * Auth → Groups (viewRoles): the project's user groups; create one
 * ("Could not create user group [reason]"), rename it and edit its collection × right matrix
 * ("User group has been updated"; "Unknown error updating user group", or the server's text on a
 * 400), delete it.
 */
import { useId, useState, type FormEvent } from 'react';
import { hasGroupName, samePermissions, togglePermission, type GroupPermission } from '../../../definitions/user-groups.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { isApiError } from '../../api/errors.ts';
import { useProject } from '../../api/platform-queries.ts';
import type { UserGroup } from '../../api/project-users.ts';
import { useCreateUserGroup, useDeleteUserGroup, useUpdateUserGroup, useUserGroups } from '../../api/project-users-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectActions, useProjectIds } from '../project/project-context.ts';
import { AuthHeading } from './AuthHeading.tsx';
import { GroupRightsMatrix } from './GroupRightsMatrix.tsx';
import './auth.css';

export default function UserGroupsScreen() {
  const format = useFormat();
  const id = useId();
  const scope = useProjectIds();
  const actions = useProjectActions();
  const groups = useUserGroups(scope);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = groups.data ?? [];
  const selected = list.find((group) => group.groupID === chosen) ?? list[0] ?? null;

  return (
    <section className="panel auth-screen" aria-labelledby={`${id}-title`}>
      <AuthHeading id={`${id}-title`} title={format('userGroups.title')} />
      <p className="muted">{format('userGroups.intro')}</p>
      {actions.create ? <CreateGroupForm onCreated={(group) => setChosen(group.groupID)} /> : null}

      {groups.isError ? (
        <p role="alert" className="callout-error">
          {format('userGroups.loadFailed')}
        </p>
      ) : groups.data === undefined ? (
        <p className="muted" role="status">
          {format('userGroups.loading')}
        </p>
      ) : list.length === 0 ? (
        <p className="muted">{format('userGroups.empty')}</p>
      ) : (
        <div className="auth-groups">
          <nav className="auth-group-list" aria-label={format('userGroups.list')}>
            <ul>
              {list.map((group) => (
                <li key={group.groupID}>
                  <button
                    type="button"
                    className="auth-group-choice"
                    aria-current={group.groupID === selected?.groupID ? 'true' : undefined}
                    onClick={() => setChosen(group.groupID)}
                  >
                    {group.name}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          {selected ? <GroupEditor key={selected.groupID} group={selected} onDeleted={() => setChosen(null)} /> : <p className="muted">{format('userGroups.choose')}</p>}
        </div>
      )}
    </section>
  );
}

function CreateGroupForm({ onCreated }: { onCreated: (group: UserGroup) => void }) {
  const format = useFormat();
  const id = useId();
  const scope = useProjectIds();
  const create = useCreateUserGroup(scope);
  const problemMessage = useProblemMessage();
  const [name, setName] = useState('');
  const ready = hasGroupName(name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || create.isPending) return;
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (group) => {
          setName('');
          onCreated(group);
        },
      },
    );
  };

  return (
    <form className="auth-create" onSubmit={submit} noValidate aria-label={format('userGroups.create')}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {format('userGroups.newName')}
        </label>
        <input id={`${id}-name`} className="input" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} />
      </div>
      <button type="submit" className="button button-primary" disabled={!ready} aria-disabled={create.isPending || undefined}>
        {create.isPending ? format('userGroups.creating') : format('userGroups.create')}
      </button>
      {create.error ? (
        <p role="alert" className="form-alert auth-create-alert">
          {format('userGroup.createFailed', { reason: problemMessage(create.error) })}
        </p>
      ) : null}
    </form>
  );
}

function GroupEditor({ group, onDeleted }: { group: UserGroup; onDeleted: () => void }) {
  const format = useFormat();
  const id = useId();
  const scope = useProjectIds();
  const actions = useProjectActions();
  const { data: project } = useProject(scope.organizationID, scope.projectID);
  const update = useUpdateUserGroup(scope);
  const [name, setName] = useState(group.name);
  const [permissions, setPermissions] = useState<GroupPermission[]>(group.permissions);
  const [deleting, setDeleting] = useState(false);
  const collections = project?.collections ?? [];
  const changed = name.trim() !== group.name || !samePermissions(permissions, group.permissions);
  const canSave = actions.update && hasGroupName(name) && changed;

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!canSave || update.isPending) return;
    update.mutate(
      { groupID: group.groupID, name: name.trim(), permissions },
      {
        onSuccess: () => void notify({ kind: 'success', title: format('userGroup.updated') }),
        onError: (error) => {
          // A 400 explains itself (a collection that is gone, a name taken): its text is shown.
          const title = isApiError(error) && error.status === 400 && error.detail ? problemText(error, format) : format('userGroup.updateFailed');
          void notify({ kind: 'error', title });
        },
      },
    );
  };

  return (
    <form className="auth-group-editor" onSubmit={save} noValidate aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{format('userGroups.rights', { name: group.name })}</h3>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {format('userGroups.name')}
        </label>
        <input
          id={`${id}-name`}
          className="input"
          autoComplete="off"
          value={name}
          readOnly={!actions.update}
          aria-invalid={hasGroupName(name) ? undefined : true}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      {collections.length ? (
        <>
          <p id={`${id}-help`} className="field-help">
            {format('userGroups.associatedOnly.help')}
          </p>
          <GroupRightsMatrix
            labelledBy={`${id}-heading`}
            describedBy={`${id}-help`}
            collections={collections}
            permissions={permissions}
            disabled={!actions.update}
            onToggle={(collection, column) => setPermissions((current) => togglePermission(current, collection, column))}
          />
        </>
      ) : (
        <p className="muted">{format('userGroups.noCollections')}</p>
      )}
      <div className="form-actions">
        {actions.delete ? (
          <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
            {format('userGroups.delete')}
          </button>
        ) : null}
        {actions.update ? (
          <button type="submit" className="button button-primary" disabled={!canSave} aria-disabled={update.isPending || undefined}>
            {update.isPending ? format('userGroups.saving') : format('userGroups.save')}
          </button>
        ) : null}
      </div>
      <DeleteGroupDialog group={deleting ? group : null} onClose={() => setDeleting(false)} onDeleted={onDeleted} />
    </form>
  );
}

function DeleteGroupDialog({ group, onClose, onDeleted }: { group: UserGroup | null; onClose: () => void; onDeleted: () => void }) {
  const format = useFormat();
  const scope = useProjectIds();
  const remove = useDeleteUserGroup(scope);
  const problemMessage = useProblemMessage();
  return (
    <ModalDialog
      open={group !== null}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      name="deleteUserGroup"
      title={format('userGroups.delete.title', { name: group?.name ?? '' })}
      description={format('userGroups.delete.body')}
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
            if (!group || remove.isPending) return;
            remove.mutate(group.groupID, {
              onSuccess: () => {
                void notify({ kind: 'success', title: format('userGroups.deleted') });
                onClose();
                onDeleted();
              },
              onError: (error) => void notify({ kind: 'error', title: format('userGroups.deleteFailed', { reason: problemMessage(error) }) }),
            });
          }}
        >
          {format('userGroups.delete')}
        </button>
      </div>
    </ModalDialog>
  );
}
