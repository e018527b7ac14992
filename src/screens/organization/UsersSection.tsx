/**
 * Settings → Users: members and pending invitations with their status and
 * permissions; admins invite, edit permissions, remove (never themselves) and add seats.
 */
import { useState } from 'react';
import { MoreHorizontal } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { flagLabels, isSelf, memberName, permissionSummary, seatUsage } from '../../../definitions/membership.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Me } from '../../api/auth.ts';
import type { Member, Organization } from '../../api/platform.ts';
import { useRemoveMember } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { AddSeatsDialog } from './AddSeatsDialog.tsx';
import { EditMemberDialog } from './EditMemberDialog.tsx';
import { InviteDialog } from './InviteDialog.tsx';

export interface UsersSectionProps {
  organization: Organization;
  me: Pick<Me, 'email' | 'superAdmin'>;
  isAdmin: boolean;
}

type Open = { kind: 'invite' } | { kind: 'seats' } | { kind: 'edit'; member: Member } | { kind: 'remove'; member: Member } | null;

export function UsersSection({ organization, me, isAdmin }: UsersSectionProps) {
  const format = useFormat();
  const [open, setOpen] = useState<Open>(null);
  const usage = seatUsage(organization);
  const close = () => setOpen(null);

  return (
    <section className="panel" aria-labelledby="settings-users">
      <div className="section-header">
        <h2 id="settings-users">{format('settings.users')}</h2>
        <p className="muted" data-testid="seat-usage">
          {format('members.seats', { used: usage.used, seats: usage.seats })}
        </p>
        {isAdmin ? (
          <div className="section-actions">
            <button type="button" className="button" onClick={() => setOpen({ kind: 'seats' })}>
              {format('members.addSeats')}
            </button>
            <button type="button" className="button button-primary" onClick={() => setOpen({ kind: 'invite' })}>
              {format('members.invite')}
            </button>
          </div>
        ) : null}
      </div>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{format('members.name')}</th>
              <th scope="col">{format('members.email')}</th>
              <th scope="col">{format('members.status')}</th>
              <th scope="col">{format('members.permissions')}</th>
              {isAdmin ? (
                <th scope="col">
                  <span className="visually-hidden">{format('members.actions')}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {organization.users.map((member) => {
              const self = isSelf(member, me);
              const flags = permissionSummary(member.permissions);
              return (
                <tr key={member.email}>
                  <th scope="row" className="member-name">
                    {member.username || member.userName || '—'}
                    {self ? <span className="badge">{format('members.you')}</span> : null}
                  </th>
                  <td>{member.email}</td>
                  <td>
                    <span className={`badge badge-${member.status}`}>{format(`members.status.${member.status}`)}</span>
                  </td>
                  <td>{flags.length ? flags.map((flag) => format(flagLabels[flag])).join(', ') : format('members.readOnly')}</td>
                  {isAdmin ? (
                    <td className="cell-actions">
                      {self ? null : <MemberActions member={member} onEdit={() => setOpen({ kind: 'edit', member })} onRemove={() => setOpen({ kind: 'remove', member })} />}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {isAdmin ? (
        <>
          <InviteDialog organization={organization} open={open?.kind === 'invite'} onOpenChange={(next) => setOpen(next ? { kind: 'invite' } : null)} />
          <AddSeatsDialog organization={organization} open={open?.kind === 'seats'} onOpenChange={(next) => setOpen(next ? { kind: 'seats' } : null)} />
          <EditMemberDialog
            organizationID={organization.id}
            member={open?.kind === 'edit' ? open.member : null}
            onClose={close}
          />
          <RemoveMemberDialog organizationID={organization.id} member={open?.kind === 'remove' ? open.member : null} onClose={close} />
        </>
      ) : null}
    </section>
  );
}

function MemberActions({ member, onEdit, onRemove }: { member: Member; onEdit: () => void; onRemove: () => void }) {
  const format = useFormat();
  return (
    // Not modal: a modal menu marks the page aria-hidden while its links stay focusable (axe).
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-button" aria-label={format('members.actionsFor', { name: memberName(member) })}>
        <MoreHorizontal aria-hidden="true" size={18} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Item className="menu-item" onSelect={onEdit}>
            {format('members.edit')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item menu-item-danger" onSelect={onRemove}>
            {format('members.remove')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function RemoveMemberDialog({ organizationID, member, onClose }: { organizationID: string; member: Member | null; onClose: () => void }) {
  const format = useFormat();
  const remove = useRemoveMember(organizationID);
  const problemMessage = useProblemMessage();
  const name = member ? memberName(member) : '';
  return (
    <ModalDialog
      open={member !== null}
      onOpenChange={(next) => {
        if (!next) {
          remove.reset();
          onClose();
        }
      }}
      name="removeMember"
      title={format('members.remove.title', { name })}
      description={format('members.remove.body', { name })}
    >
      {remove.error ? (
        <p role="alert" className="form-alert">
          {problemMessage(remove.error)}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          {format('form.cancel')}
        </button>
        <button
          type="button"
          className="button button-danger"
          aria-disabled={remove.isPending || undefined}
          onClick={() => {
            if (!member || remove.isPending) return;
            remove.mutate(member.email, {
              onSuccess: ({ removed }) => {
                void notify({ kind: 'success', title: format('member.removed', { user: removed }) });
                onClose();
              },
            });
          }}
        >
          {format('members.remove.confirm')}
        </button>
      </div>
    </ModalDialog>
  );
}
