/**
 * The confirmation of a change to a user in the admin area: disable (their sessions, tokens and
 * live streams end at once), enable, grant or revoke super-admin. The call runs on Confirm; a
 * refusal stays in the dialog, success closes it with a toast.
 */
import { ModalDialog } from '../../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import type { MessageKey } from '../../../../definitions/messages/format.ts';
import type { AdminUser } from '../../../api/admin.ts';
import { useSetUserDisabled, useSetUserSuperAdmin } from '../../../api/admin-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';

export type ConfirmedAction = 'disable' | 'enable' | 'grant' | 'revoke';

const texts: Record<ConfirmedAction, { title: MessageKey; body: MessageKey; confirm: MessageKey; done: MessageKey; danger: boolean }> = {
  disable: { title: 'admin.users.disableTitle', body: 'admin.users.disableBody', confirm: 'admin.users.disable', done: 'admin.users.disabledToast', danger: true },
  enable: { title: 'admin.users.enableTitle', body: 'admin.users.enableBody', confirm: 'admin.users.enable', done: 'admin.users.enabledToast', danger: false },
  grant: { title: 'admin.users.grantTitle', body: 'admin.users.grantBody', confirm: 'admin.users.grant', done: 'admin.users.grantedToast', danger: false },
  revoke: { title: 'admin.users.revokeTitle', body: 'admin.users.revokeBody', confirm: 'admin.users.revoke', done: 'admin.users.revokedToast', danger: true },
};

export function ConfirmUserActionDialog({ pending, onClose }: { pending: { action: ConfirmedAction; user: AdminUser } | null; onClose: () => void }) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const setDisabled = useSetUserDisabled();
  const setSuperAdmin = useSetUserSuperAdmin();
  const running = pending?.action === 'grant' || pending?.action === 'revoke' ? setSuperAdmin : setDisabled;
  const close = () => {
    setDisabled.reset();
    setSuperAdmin.reset();
    onClose();
  };
  const text = pending ? texts[pending.action] : null;
  const username = pending?.user.username ?? '';

  const confirm = () => {
    if (!pending || !text || running.isPending) return;
    const { action, user } = pending;
    const onSuccess = () => {
      void notify({ kind: 'success', title: format(text.done, { username: user.username }) });
      close();
    };
    if (action === 'disable' || action === 'enable') setDisabled.mutate({ userID: user.id, disabled: action === 'disable' }, { onSuccess });
    else setSuperAdmin.mutate({ userID: user.id, superAdmin: action === 'grant' }, { onSuccess });
  };

  return (
    <ModalDialog
      open={pending !== null}
      onOpenChange={(next) => {
        if (!next) close();
      }}
      name="adminUserAction"
      title={text ? format(text.title, { username }) : ''}
      description={text ? format(text.body, { username }) : undefined}
      widthPx={480}
    >
      {running.error ? (
        <p role="alert" className="form-alert">
          {problemMessage(running.error)}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={close}>
          {format('form.cancel')}
        </button>
        <button type="button" className={text?.danger ? 'button button-danger' : 'button button-primary'} aria-disabled={running.isPending || undefined} onClick={confirm}>
          {text ? format(text.confirm) : ''}
        </button>
      </div>
    </ModalDialog>
  );
}
