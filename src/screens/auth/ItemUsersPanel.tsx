/**
 * The item page's Users panel: the app users associated with the
 * item, add one, remove one. Without any app user in the project it only says how to begin. A
 * group's "Associated items only" rights reach an item through this list.
 */
import { useId, useState, type FormEvent } from 'react';
import { X } from 'lucide-react';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { ItemPlace } from '../../api/project-users.ts';
import { useChangeItemUser, useItemUsers, useProjectUsers } from '../../api/project-users-queries.ts';
import { userName } from './AuthHeading.tsx';
import './auth.css';

/** Users offered in the chooser: the first page of the project's users. */
const CHOOSER_PAGE = 100;

export interface ItemUsersPanelProps {
  place: ItemPlace;
  /** Whether the signed-in member may change the item. */
  editable: boolean;
}

export function ItemUsersPanel({ place, editable }: ItemUsersPanelProps) {
  const format = useFormat();
  const id = useId();
  const projectUsers = useProjectUsers(place, { pageNumber: 1, perPage: CHOOSER_PAGE });
  const hasUsers = (projectUsers.data?.total ?? 0) > 0;
  const itemUsers = useItemUsers(place, { enabled: hasUsers });
  const change = useChangeItemUser(place);
  const [choice, setChoice] = useState('');

  const known = new Map((projectUsers.data?.users ?? []).map((user) => [user.userID, user]));
  const listed = itemUsers.data ?? [];
  const listedIDs = new Set(listed.map((entry) => entry.userID));
  const offered = (projectUsers.data?.users ?? []).filter((user) => !listedIDs.has(user.userID));
  const nameOf = (userID: string) => {
    const user = known.get(userID);
    return user ? userName(user) : userID;
  };

  const run = (userID: string, add: boolean) =>
    change.mutate(
      { userID, add },
      {
        onSuccess: () => {
          if (add) setChoice('');
        },
        onError: () => void notify({ kind: 'error', title: format('item.usersUpdateFailed') }),
      },
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!choice || change.isPending) return;
    run(choice, true);
  };

  return (
    <section className="item-users" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{format('itemUsers.title')}</h3>
      {projectUsers.data === undefined ? (
        projectUsers.isError ? (
          <p role="alert" className="callout-error">
            {format('projectUsers.loadFailed')}
          </p>
        ) : (
          <p className="muted" role="status">
            {format('itemUsers.loading')}
          </p>
        )
      ) : !hasUsers ? (
        <p className="muted">{format('itemUsers.none')}</p>
      ) : (
        <>
          <p className="field-help">{format('itemUsers.intro')}</p>
          {itemUsers.data === undefined ? (
            <p className="muted" role="status">
              {format('itemUsers.loading')}
            </p>
          ) : listed.length === 0 ? (
            <p className="muted">{format('itemUsers.empty')}</p>
          ) : (
            <ul className="item-users-list" aria-label={format('itemUsers.list')}>
              {listed.map((entry) => (
                <li key={entry.userID} className="item-users-entry">
                  <span>{nameOf(entry.userID)}</span>
                  {editable ? (
                    <button
                      type="button"
                      className="icon-button icon-button-small"
                      aria-label={format('itemUsers.remove', { name: nameOf(entry.userID) })}
                      aria-disabled={change.isPending || undefined}
                      onClick={() => {
                        if (!change.isPending) run(entry.userID, false);
                      }}
                    >
                      <X aria-hidden="true" size={15} />
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {editable && offered.length ? (
            <form className="item-users-add" onSubmit={submit} noValidate aria-label={format('itemUsers.add')}>
              <label className="visually-hidden" htmlFor={`${id}-choice`}>
                {format('itemUsers.choose')}
              </label>
              <select id={`${id}-choice`} className="input select" value={choice} onChange={(event) => setChoice(event.target.value)}>
                <option value="">{format('itemUsers.choosePlaceholder')}</option>
                {offered.map((user) => (
                  <option key={user.userID} value={user.userID}>
                    {userName(user)}
                  </option>
                ))}
              </select>
              <button type="submit" className="button" disabled={!choice} aria-disabled={change.isPending || undefined}>
                {format('itemUsers.add')}
              </button>
            </form>
          ) : null}
        </>
      )}
    </section>
  );
}
