/**
 * One user's actions in the All users table, as a menu (radix DropdownMenu): resend the
 * verification mail (unverified users), disable or enable, grant or revoke super-admin. The
 * signed-in super-admin cannot disable or demote themself, and a super-admin named by the
 * configuration cannot be revoked or disabled here; those entries stay visible but disabled, with the reason
 * (docs/admin.md "Users"). The server refuses them either way.
 */
import { MoreHorizontal } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import type { AdminUser } from '../../../api/admin.ts';

export type UserAction = 'resend' | 'disable' | 'enable' | 'grant' | 'revoke';

export function UserActionsMenu({ user, self, onAction }: { user: AdminUser; self: boolean; onAction: (action: UserAction) => void }) {
  const format = useFormat();
  const superAdmin = user.superAdmin || user.configuredSuperAdmin;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-button icon-button-small" aria-label={format('admin.users.actionsOf', { username: user.username })}>
        <MoreHorizontal aria-hidden="true" size={18} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          {user.verified ? null : (
            <DropdownMenu.Item className="menu-item" onSelect={() => onAction('resend')}>
              {format('admin.users.resend')}
            </DropdownMenu.Item>
          )}
          {user.disabled ? (
            <DropdownMenu.Item className="menu-item" onSelect={() => onAction('enable')}>
              {format('admin.users.enable')}
            </DropdownMenu.Item>
          ) : (
            <DropdownMenu.Item className="menu-item menu-item-danger" disabled={self || user.configuredSuperAdmin} onSelect={() => onAction('disable')}>
              {format('admin.users.disable')}
            </DropdownMenu.Item>
          )}
          {superAdmin ? (
            <DropdownMenu.Item className="menu-item" disabled={self || user.configuredSuperAdmin} onSelect={() => onAction('revoke')}>
              <span className="menu-item-text">{format('admin.users.revoke')}</span>
            </DropdownMenu.Item>
          ) : (
            <DropdownMenu.Item className="menu-item" onSelect={() => onAction('grant')}>
              {format('admin.users.grant')}
            </DropdownMenu.Item>
          )}
          {self || user.configuredSuperAdmin ? (
            <DropdownMenu.Label className="menu-label admin-menu-note">{format(self ? 'admin.users.selfNote' : 'admin.users.configuredNote')}</DropdownMenu.Label>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
