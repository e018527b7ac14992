/**
 * The API token form, driven by machines/token-form.ts: name, per-collection
 * permissions (once the project has collections), power permissions for any collection, User
 * Admin and the user group. A right beyond the signed-in member's own is not offered.
 */
import { useId, type FormEvent, type ReactNode } from 'react';
import { useMachine } from '@xstate/react';
import { Switch } from 'radix-ui';
import {
  powerFlagLabels,
  powerFlags,
  roleFlagLabels,
  roleFlags,
  roleOf,
  USER_ADMIN_GROUP_ID,
  type PowerFlag,
  type RoleFlag,
  type TokenDraft,
} from '../../../../definitions/api-tokens.ts';
import { rightsBeyond, type MemberPermissions } from '../../../../definitions/permissions.ts';
import { canSubmit, tokenFormMachine } from '../../../../machines/token-form.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import type { CollectionSummary } from '../../../api/platform.ts';

export interface UserGroupOption {
  id: string;
  name: string;
}

export interface TokenFormProps {
  /** Names the form (the page's or the card's heading). */
  labelledBy: string;
  collections: readonly CollectionSummary[];
  userGroups: readonly UserGroupOption[];
  /** The signed-in member's flags: rights beyond them are not offered. Null while loading. */
  minter: MemberPermissions | null;
  /** A saved token to edit; a new token starts blank. */
  token?: Partial<TokenDraft>;
  busy: boolean;
  error?: string | null;
  submitLabel: string;
  busyLabel: string;
  /** Resolves true when the server took the draft: a new token's form then starts blank again. */
  onSubmit: (draft: TokenDraft) => Promise<boolean>;
  /** Buttons drawn before the submit button (Delete, Cancel). */
  extraActions?: ReactNode;
  resetAfterSubmit?: boolean;
}

export function TokenForm({
  labelledBy,
  collections,
  userGroups,
  minter,
  token,
  busy,
  error,
  submitLabel,
  busyLabel,
  onSubmit,
  extraActions,
  resetAfterSubmit = false,
}: TokenFormProps) {
  const format = useFormat();
  const id = useId();
  const [state, send] = useMachine(tokenFormMachine, { input: { token } });
  const { draft } = state.context;
  const groupLocked = state.matches({ group: 'locked' });
  const ready = canSubmit(state);

  /** Turning this right on would exceed the member's own: not offered (turning it off always is). */
  const beyond = (change: Partial<TokenDraft>, right: string) => minter !== null && rightsBeyond(minter, { ...draft, ...change }).includes(right);
  const roleBeyond = (collection: string, flag: RoleFlag) =>
    !roleOf(draft.roles, collection)[flag] &&
    beyond({ roles: [...draft.roles.filter((role) => role.collection !== collection), { ...roleOf(draft.roles, collection), [flag]: true }] }, `roles.${collection}.${flag}`);
  const powerBeyond = (flag: PowerFlag) => !draft[flag] && beyond({ [flag]: true }, flag);
  const userAdminBeyond = !draft.userAdmin && beyond({ userAdmin: true }, 'userAdmin');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    const done = await onSubmit(draft);
    if (done && resetAfterSubmit) send({ type: 'RESET' });
  };

  return (
    <form className="form token-form" aria-labelledby={labelledBy} noValidate onSubmit={submit}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {format('form.token.name')}
        </label>
        <input
          id={`${id}-name`}
          className="input"
          autoComplete="off"
          value={draft.name}
          aria-required="true"
          onChange={(event) => send({ type: 'SET_NAME', name: event.target.value })}
        />
      </div>

      <fieldset className="token-section">
        <legend className="token-section-title">{format('token.collections.heading')}</legend>
        {collections.length ? (
          <div className="table-scroll">
            <table className="table table-compact">
              <thead>
                <tr>
                  <th scope="col">{format('token.collection')}</th>
                  {roleFlags.map((flag) => (
                    <th scope="col" key={flag}>
                      {format(roleFlagLabels[flag])}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {collections.map((collection) => {
                  const role = roleOf(draft.roles, collection.id);
                  return (
                    <tr key={collection.id}>
                      <th scope="row">{collection.name}</th>
                      {roleFlags.map((flag) => (
                        <td key={flag}>
                          <Switch.Root
                            className="switch"
                            checked={role[flag]}
                            disabled={roleBeyond(collection.id, flag)}
                            title={roleBeyond(collection.id, flag) ? format('token.beyondRights') : undefined}
                            aria-label={format('token.flagIn', { flag: format(roleFlagLabels[flag]), collection: collection.name })}
                            onCheckedChange={() => send({ type: 'TOGGLE_ROLE', collection: collection.id, flag })}
                          >
                            <Switch.Thumb className="switch-thumb" />
                          </Switch.Root>
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">{format('token.collections.none')}</p>
        )}
      </fieldset>

      <fieldset className="token-section" aria-describedby={`${id}-power`}>
        <legend className="token-section-title">{format('token.power.heading')}</legend>
        <p id={`${id}-power`} className="muted">
          {format('token.power.intro')}
        </p>
        <div className="switch-row">
          {powerFlags.map((flag) => (
            <label className="switch-label" key={flag} htmlFor={`${id}-${flag}`}>
              <Switch.Root
                id={`${id}-${flag}`}
                className="switch"
                checked={draft[flag]}
                disabled={powerBeyond(flag)}
                title={powerBeyond(flag) ? format('token.beyondRights') : undefined}
                onCheckedChange={() => send({ type: 'TOGGLE_POWER', flag })}
              >
                <Switch.Thumb className="switch-thumb" />
              </Switch.Root>
              {format(powerFlagLabels[flag])}
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="token-section">
        <legend className="token-section-title">{format('token.users.heading')}</legend>
        <label className="switch-label" htmlFor={`${id}-userAdmin`}>
          <Switch.Root
            id={`${id}-userAdmin`}
            className="switch"
            checked={draft.userAdmin}
            disabled={userAdminBeyond}
            title={userAdminBeyond ? format('token.beyondRights') : undefined}
            aria-describedby={`${id}-userAdmin-help`}
            onCheckedChange={() => send({ type: 'TOGGLE_USER_ADMIN' })}
          >
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          {format('token.userAdmin')}
        </label>
        <p id={`${id}-userAdmin-help`} className="field-help">
          {format('token.userAdmin.help')}
        </p>
        {userGroups.length || groupLocked ? (
          <div className="field">
            <label className="field-label" htmlFor={`${id}-group`}>
              {format('token.userGroup')}
            </label>
            <select
              id={`${id}-group`}
              className="input select"
              value={draft.userGroupID ?? ''}
              disabled={groupLocked}
              onChange={(event) => send({ type: 'SELECT_GROUP', groupID: event.target.value || null })}
            >
              <option value="">{format('token.userGroup.none')}</option>
              {groupLocked ? <option value={USER_ADMIN_GROUP_ID}>{USER_ADMIN_GROUP_ID}</option> : null}
              {userGroups.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {userGroups.length ? null : <p className="field-help">{format('token.userGroup.hint')}</p>}
      </fieldset>

      {error ? (
        <p role="alert" className="form-alert">
          {error}
        </p>
      ) : null}
      <div className="form-actions">
        {extraActions}
        <button type="submit" className="button button-primary" disabled={!ready} aria-disabled={busy || undefined}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
