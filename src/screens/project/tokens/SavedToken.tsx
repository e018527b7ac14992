/**
 * A saved API token: a header with its name and an edit button; in edit mode the
 * token form with Delete and Save ("Token has been updated" / "Token has been deleted").
 */
import { useId, useState } from 'react';
import { Pencil } from 'lucide-react';
import { powerFlagLabels, powerFlags, roleFlagLabels, roleFlags } from '../../../../definitions/api-tokens.ts';
import { tokenBody } from '../../../../definitions/api-tokens.ts';
import { formatDateTime } from '../../../../definitions/format-date-time.ts';
import type { MemberPermissions } from '../../../../definitions/permissions.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import type { ApiToken, CollectionSummary } from '../../../api/platform.ts';
import { useDeleteApiToken, useUpdateApiToken } from '../../../api/platform-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';
import { TokenForm } from './TokenForm.tsx';
import { useUserGroupOptions } from '../../auth/use-group-options.ts';

export interface SavedTokenProps {
  token: ApiToken;
  collections: readonly CollectionSummary[];
  minter: MemberPermissions | null;
  canUpdate: boolean;
  canDelete: boolean;
}

export function SavedToken({ token, collections, minter, canUpdate, canDelete }: SavedTokenProps) {
  const format = useFormat();
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  const update = useUpdateApiToken(token.organizationID, token.projectID);
  const remove = useDeleteApiToken(token.organizationID, token.projectID);
  const problemMessage = useProblemMessage();
  const userGroups = useUserGroupOptions();

  return (
    <article className="token-card" aria-labelledby={titleId} data-token={token.id}>
      <header className="token-card-header">
        <h3 id={titleId}>{token.name}</h3>
        {!editing && (canUpdate || canDelete) ? (
          <button type="button" className="icon-button" aria-label={format('token.edit', { name: token.name })} onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" size={16} />
          </button>
        ) : null}
      </header>
      {editing ? (
        <TokenForm
          labelledBy={titleId}
          collections={collections}
          userGroups={userGroups}
          minter={minter}
          token={token}
          busy={update.isPending}
          error={update.error ? format('token.updateFailed', { detail: problemMessage(update.error) }) : null}
          submitLabel={format('token.save')}
          busyLabel={format('token.saving')}
          onSubmit={async (draft) => {
            try {
              await update.mutateAsync({ token, draft: tokenBody(draft) });
              void notify({ kind: 'success', title: format('token.updated') });
              setEditing(false);
              return true;
            } catch {
              return false;
            }
          }}
          extraActions={
            <>
              {canDelete ? (
                <button
                  type="button"
                  className="button button-danger"
                  aria-disabled={remove.isPending || undefined}
                  onClick={() => {
                    if (remove.isPending) return;
                    remove.mutate(token.id, {
                      onSuccess: () => void notify({ kind: 'success', title: format('token.deleted') }),
                      // This failure is only logged.
                      onError: (error) => console.error('The token could not be deleted', error),
                    });
                  }}
                >
                  {format('token.delete')}
                </button>
              ) : null}
              <button
                type="button"
                className="button"
                onClick={() => {
                  update.reset();
                  setEditing(false);
                }}
              >
                {format('token.cancelEdit')}
              </button>
            </>
          }
        />
      ) : (
        <TokenSummary token={token} collections={collections} userGroups={userGroups} />
      )}
    </article>
  );
}

function TokenSummary({ token, collections, userGroups }: { token: ApiToken; collections: readonly CollectionSummary[]; userGroups: readonly { id: string; name: string }[] }) {
  const format = useFormat();
  const power = powerFlags.filter((flag) => token[flag]).map((flag) => format(powerFlagLabels[flag]));
  const roles = token.roles
    .map((role) => ({
      name: collections.find((collection) => collection.id === role.collection)?.name ?? role.collection,
      flags: roleFlags.filter((flag) => role[flag]).map((flag) => format(roleFlagLabels[flag])),
    }))
    .filter((role) => role.flags.length);
  const lines = [
    ...(power.length ? [format('token.summary.power', { flags: power.join(', ') })] : []),
    ...roles.map((role) => format('token.summary.role', { collection: role.name, flags: role.flags.join(', ') })),
    ...(token.userAdmin ? [format('token.summary.userAdmin')] : []),
    ...(token.userGroupID ? [format('token.summary.group', { group: userGroups.find((group) => group.id === token.userGroupID)?.name ?? token.userGroupID })] : []),
  ];
  return (
    <div className="token-summary">
      <ul className="plain-list">{lines.length ? lines.map((line) => <li key={line}>{line}</li>) : <li className="muted">{format('token.summary.none')}</li>}</ul>
      <p className="muted">{format('token.createdOn', { date: formatDateTime(token.createdDate) })}</p>
    </div>
  );
}
