/** Edit a member's (or a pending invitation's) permissions; the flags go flattened with the e-mail. */
import { useState, type FormEvent } from 'react';
import { memberEditBody, memberName, shownChoices } from '../../../definitions/membership.ts';
import type { MemberPermissions } from '../../../definitions/permissions.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Member } from '../../api/platform.ts';
import { useEditMember } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { PermissionChoices } from './PermissionChoices.tsx';

export function EditMemberDialog({ organizationID, member, onClose }: { organizationID: string; member: Member | null; onClose: () => void }) {
  const format = useFormat();
  const name = member ? memberName(member) : '';
  return (
    <ModalDialog
      open={member !== null}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      name="editMember"
      title={format('members.edit.title', { name })}
      description={format('members.edit.readAlways')}
    >
      {({ titleId }) => (member ? <EditMemberForm key={member.email} organizationID={organizationID} member={member} titleId={titleId} onClose={onClose} /> : null)}
    </ModalDialog>
  );
}

function EditMemberForm({ organizationID, member, titleId, onClose }: { organizationID: string; member: Member; titleId: string; onClose: () => void }) {
  const format = useFormat();
  const edit = useEditMember(organizationID);
  const problemMessage = useProblemMessage();
  const [chosen, setChosen] = useState<MemberPermissions>(() => shownChoices(member.permissions));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (edit.isPending) return;
    edit.mutate(memberEditBody(member.email, chosen), {
      onSuccess: () => {
        void notify({ kind: 'success', title: format('member.updated', { user: memberName(member) }) });
        onClose();
      },
    });
  };
  return (
    <form className="form" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <PermissionChoices legend={format('members.permissions')} value={chosen} onChange={setChosen} />
      {edit.error ? (
        <p role="alert" className="form-alert">
          {problemMessage(edit.error)}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          {format('form.cancel')}
        </button>
        <button type="submit" className="button button-primary" aria-disabled={edit.isPending || undefined}>
          {format(edit.isPending ? 'form.saving' : 'form.save')}
        </button>
      </div>
    </form>
  );
}
