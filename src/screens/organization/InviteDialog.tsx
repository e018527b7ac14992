/**
 * Invite people: a list of e-mail addresses, rows added at will, each with
 * its permission choices (read-only by default). "Invalid email address" under a wrong address;
 * Send Invite is disabled while the first address is invalid, and with "No more seats available"
 * when members and pending invitations fill the seats.
 */
import { useId, useState, type FormEvent } from 'react';
import { Plus, X } from 'lucide-react';
import inviteEmailForm from '../../../definitions/forms/invite-email.ts';
import validateInviteEmail from '../../../definitions/forms/invite-email.ts?validator';
import { inviteEntry, inviteSendState, readOnly, seatUsage } from '../../../definitions/membership.ts';
import type { MemberPermissions } from '../../../definitions/permissions.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { prepareValues } from '../../../renderers/forms/prepare-values.ts';
import { validateValues } from '../../../renderers/forms/standalone-resolver.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Organization } from '../../api/platform.ts';
import { useInvite } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { PermissionChoices } from './PermissionChoices.tsx';

interface Row {
  key: number;
  email: string;
  permissions: MemberPermissions;
  /** Left once, or submitted: from then on its error shows. */
  touched: boolean;
}

let nextKey = 0;
const newRow = (): Row => ({ key: (nextKey += 1), email: '', permissions: { ...readOnly }, touched: false });

export function InviteDialog({ organization, open, onOpenChange }: { organization: Organization; open: boolean; onOpenChange: (open: boolean) => void }) {
  const format = useFormat();
  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} name="invite" title={format('invite.title')} description={format('invite.intro')} widthPx={560}>
      {({ titleId }) => (open ? <InviteForm organization={organization} titleId={titleId} onDone={() => onOpenChange(false)} /> : null)}
    </ModalDialog>
  );
}

function InviteForm({ organization, titleId, onDone }: { organization: Organization; titleId: string; onDone: () => void }) {
  const format = useFormat();
  const id = useId();
  const invite = useInvite(organization.id);
  const problemMessage = useProblemMessage();
  const [rows, setRows] = useState<Row[]>(() => [newRow()]);
  const usage = seatUsage(organization);

  const checked = rows.map((row) => {
    const data = prepareValues(inviteEmailForm, { email: row.email });
    const error = validateValues(validateInviteEmail, format, data).errors.email?.message ?? null;
    return { row, filled: row.email.trim() !== '', valid: error === null, error };
  });
  const state = inviteSendState(checked, usage);
  const change = (key: number, patch: Partial<Row>) => setRows((list) => list.map((row) => (row.key === key ? { ...row, ...patch } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (state.disabled || invite.isPending) return;
    // Extra rows left empty are ignored; a filled one must be a valid address.
    const send = checked.filter((entry, index) => index === 0 || entry.filled);
    if (send.some((entry) => !entry.valid)) {
      setRows((list) => list.map((row) => ({ ...row, touched: true })));
      return;
    }
    invite.mutate(
      send.map((entry) => inviteEntry(entry.row.email, entry.row.permissions)),
      {
        onSuccess: () => {
          void notify({ kind: 'success', title: format('invite.sent', { count: send.length }) });
          onDone();
        },
      },
    );
  };

  return (
    <form className="form" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <p className="muted" id={`${id}-seats`}>
        {format('invite.seatsLeft', { left: usage.left })}
      </p>
      <ol className="invite-rows">
        {checked.map(({ row, error }, index) => {
          const number = index + 1;
          const showError = error !== null && row.touched && (index === 0 || row.email.trim() !== '');
          const inputId = `${id}-email-${row.key}`;
          return (
            <li className="invite-row" key={row.key}>
              <div className="field">
                <label className="field-label" htmlFor={inputId}>
                  {format('form.invite.email')} <span className="visually-hidden">{format('invite.person', { number })}</span>
                </label>
                <div className="input-row">
                  <input
                    id={inputId}
                    className="input"
                    type="email"
                    autoComplete="off"
                    spellCheck={false}
                    value={row.email}
                    aria-invalid={showError || undefined}
                    aria-describedby={showError ? `${inputId}-error` : undefined}
                    onChange={(event) => change(row.key, { email: event.target.value })}
                    onBlur={() => change(row.key, { touched: row.email !== '' || row.touched })}
                  />
                  {rows.length > 1 ? (
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={format('invite.removeRow', { number })}
                      onClick={() => setRows((list) => list.filter((entry) => entry.key !== row.key))}
                    >
                      <X aria-hidden="true" size={18} />
                    </button>
                  ) : null}
                </div>
                {showError ? (
                  <p id={`${inputId}-error`} className="field-error">
                    {error}
                  </p>
                ) : null}
              </div>
              <PermissionChoices
                legend={format('invite.permissionsOf', { number })}
                hideLegend
                value={row.permissions}
                onChange={(permissions) => change(row.key, { permissions })}
              />
            </li>
          );
        })}
      </ol>
      <button type="button" className="button button-quiet" onClick={() => setRows((list) => [...list, newRow()])}>
        <Plus aria-hidden="true" size={16} />
        {format('invite.addRow')}
      </button>
      {state.noSeats ? (
        <p role="alert" className="form-notice">
          {format('seats.exhausted')}
        </p>
      ) : null}
      {invite.error ? (
        <p role="alert" className="form-alert">
          {problemMessage(invite.error)}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={onDone}>
          {format('form.cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={state.disabled} aria-disabled={invite.isPending || undefined}>
          {format(invite.isPending ? 'invite.submitting' : 'invite.submit')}
        </button>
      </div>
    </form>
  );
}
