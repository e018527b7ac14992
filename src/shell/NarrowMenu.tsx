/** At 900 px or less the navigation links move into this menu (a menu button). */
import { Menu } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useNavigate } from 'react-router';
import { useFormat } from '../../renderers/messages/use-format.ts';
import type { NavEntry } from './nav-entries.ts';

export function NarrowMenu({ entries }: { entries: readonly NavEntry[] }) {
  const format = useFormat();
  const navigate = useNavigate();
  return (
    // Not modal: a modal menu marks the page aria-hidden while its links stay focusable (axe:
    // aria-hidden-focus). Focus still moves into the menu, arrows move in it, Escape closes it.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-button narrow-only" aria-label={format('nav.menu')}>
        <Menu aria-hidden="true" size={20} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={6}>
          {entries.map((entry) => (
            <DropdownMenu.Item key={entry.to} className="menu-item" onSelect={() => navigate(entry.to)}>
              {format(entry.label)}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
