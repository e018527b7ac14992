/**
 * Soft launch (docs/admin.md "Soft launch"): its switch, changed only after a confirmation that
 * says what the change means, and the whitelist: each organization with a link to its admin
 * settings and a Remove button, and an organization added by id. The table's rows add and
 * remove too (OrganizationsTable).
 */
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Switch } from 'radix-ui';
import { routePath } from '../../../../definitions/route-path.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { ModalDialog } from '../../../../renderers/dialogs/ModalDialog.tsx';
import { notify } from '../../../../renderers/toasts/notify.ts';
import { useAdminOrganization, useSetSoftLaunch, useSoftLaunch, useWhitelist } from '../../../api/admin-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';
import { useWhitelistChange } from './use-whitelist-change.ts';

/** Whitelist entries drawn by name; a longer list says how many more there are. */
const shownEntries = 20;
const organizationId = /^[0-9a-f]{24}$/;

export function SoftLaunchPanel() {
  const format = useFormat();
  const id = useId();
  const softLaunch = useSoftLaunch();
  const whitelist = useWhitelist();
  const set = useSetSoftLaunch();
  const problemMessage = useProblemMessage();
  const [asking, setAsking] = useState<boolean | null>(null);
  const enabled = softLaunch.data?.enabled ?? false;
  const ids = whitelist.data?.organizationIDs ?? [];
  const failed = softLaunch.error ?? whitelist.error;

  const confirm = () => {
    if (asking === null || set.isPending) return;
    set.mutate(asking, {
      onSuccess: ({ enabled: now }) => {
        void notify({ kind: 'success', title: format(now ? 'admin.softLaunch.turnedOn' : 'admin.softLaunch.turnedOff') });
        setAsking(null);
      },
    });
  };

  return (
    <section className="panel admin-soft-launch" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h3 id={`${id}-title`}>{format('admin.softLaunch.title')}</h3>
        <div className="section-actions admin-switch">
          <label className="switch-label" htmlFor={`${id}-switch`}>
            {format('admin.softLaunch.switch')}
          </label>
          <Switch.Root
            id={`${id}-switch`}
            className="switch"
            checked={enabled}
            disabled={!softLaunch.data}
            aria-describedby={`${id}-rule`}
            onCheckedChange={(next) => setAsking(next)}
          >
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          <span className="admin-switch-state" aria-hidden="true">
            {format(enabled ? 'admin.softLaunch.on' : 'admin.softLaunch.off')}
          </span>
        </div>
      </div>
      <p id={`${id}-rule`} className="admin-rule">
        {format('admin.softLaunch.rule')}
      </p>
      {failed ? (
        <p role="alert" className="callout-error">
          {format('admin.softLaunch.readFailed', { reason: problemMessage(failed) })}
        </p>
      ) : null}
      <h4 className="admin-subheading">{format('admin.softLaunch.whitelist')}</h4>
      {whitelist.data ? (
        <>
          <p className="muted" data-testid="whitelist-count">
            {format('admin.softLaunch.whitelistCount', { count: ids.length })}
          </p>
          {ids.length ? (
            <ul className="admin-whitelist">
              {ids.slice(0, shownEntries).map((organizationID) => (
                <WhitelistEntry key={organizationID} organizationID={organizationID} />
              ))}
            </ul>
          ) : null}
          {ids.length > shownEntries ? <p className="muted">{format('admin.softLaunch.more', { count: ids.length - shownEntries })}</p> : null}
          <AddById ids={ids} />
        </>
      ) : null}
      <ModalDialog
        open={asking !== null}
        onOpenChange={(next) => {
          if (!next) {
            set.reset();
            setAsking(null);
          }
        }}
        name="softLaunch"
        title={format(asking ? 'admin.softLaunch.confirmOnTitle' : 'admin.softLaunch.confirmOffTitle')}
        description={asking ? format('admin.softLaunch.confirmOnText', { count: ids.length }) : format('admin.softLaunch.confirmOffText')}
      >
        {set.error ? (
          <p role="alert" className="form-alert">
            {problemMessage(set.error)}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="button" className="button" onClick={() => setAsking(null)}>
            {format('form.cancel')}
          </button>
          <button type="button" className="button button-primary" aria-disabled={set.isPending || undefined} onClick={confirm}>
            {format(asking ? 'admin.softLaunch.turnOn' : 'admin.softLaunch.turnOff')}
          </button>
        </div>
      </ModalDialog>
    </section>
  );
}

/** One whitelisted organization: its name once read (its id until then, or if it is gone). */
function WhitelistEntry({ organizationID }: { organizationID: string }) {
  const format = useFormat();
  const detail = useAdminOrganization(organizationID);
  const { change, pending } = useWhitelistChange();
  const name = detail.data?.organization.name ?? organizationID;
  return (
    <li>
      <Link to={routePath('adminOrgSettings', { organizationID })}>{name}</Link>
      <button
        type="button"
        className="button button-small"
        aria-label={format('admin.billing.whitelistRemoveLabel', { name })}
        aria-disabled={pending || undefined}
        onClick={() => {
          if (!pending) void change(organizationID, name, false);
        }}
      >
        {format('admin.billing.whitelistRemove')}
      </button>
    </li>
  );
}

/** Adds an organization by its id: checked for shape here, for existence by the server. */
function AddById({ ids }: { ids: readonly string[] }) {
  const format = useFormat();
  const id = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { change, pending } = useWhitelistChange();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const organizationID = value.trim().toLowerCase();
    if (!organizationId.test(organizationID)) return setError(format('admin.softLaunch.idInvalid'));
    if (ids.includes(organizationID)) return setError(format('admin.softLaunch.already'));
    setError(null);
    if (await change(organizationID, organizationID, true)) setValue('');
  };

  return (
    <form className="admin-inline-form" noValidate onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-id`}>
          {format('admin.softLaunch.idLabel')}
        </label>
        <input
          id={`${id}-id`}
          className="input input-mono"
          value={value}
          maxLength={24}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
        {error ? (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" aria-disabled={pending || undefined}>
        {format('admin.softLaunch.add')}
      </button>
    </form>
  );
}
