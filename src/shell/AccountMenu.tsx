/** The signed-in user's menu: who is signed in, and sign out. */
import { CircleUserRound } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useNavigate } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useLogout, useMe } from '../api/queries.ts';

export function AccountMenu() {
  const format = useFormat();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const logout = useLogout();
  return (
    // Not modal: a modal menu marks the page aria-hidden while its links stay focusable (axe:
    // aria-hidden-focus). Focus still moves into the menu, arrows move in it, Escape closes it.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-button" aria-label={format('nav.account')}>
        <CircleUserRound aria-hidden="true" size={20} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          {me ? <DropdownMenu.Label className="menu-label">{format('nav.signedInAs', { username: me.username })}</DropdownMenu.Label> : null}
          <DropdownMenu.Item
            className="menu-item"
            onSelect={() => {
              logout.mutate(undefined, { onSettled: () => navigate(routePath('login'), { replace: true }) });
            }}
          >
            {format('nav.signOut')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
