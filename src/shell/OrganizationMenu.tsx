/** The top bar's organization switcher: the user's organizations and "New organization". */
import { Building2, Check, ChevronDown, Plus } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useMatches, useNavigate } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useOrganizations } from '../api/platform-queries.ts';
import { useMe } from '../api/queries.ts';
import { getApiClient } from '../api/client.ts';

export function OrganizationMenu() {
  const format = useFormat();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const { data: organizations } = useOrganizations(me?.organizations);
  const fromRoute = useMatches().find((match) => match.params.organizationID)?.params.organizationID;
  const currentID = fromRoute ?? getApiClient().session.getLastOrganization();
  const current = organizations?.find((organization) => organization.id === currentID);
  if (!me) return null;
  return (
    // Not modal: a modal menu marks the page aria-hidden while its links stay focusable (axe).
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="org-switcher" aria-label={current ? format('nav.organizationMenu', { name: current.name }) : format('nav.chooseOrganization')}>
        <Building2 aria-hidden="true" size={18} />
        <span className="org-switcher-name" aria-hidden="true">
          {current?.name ?? format('nav.organizations')}
        </span>
        <ChevronDown aria-hidden="true" size={16} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={6}>
          {organizations?.length ? <DropdownMenu.Label className="menu-label">{format('nav.organizations')}</DropdownMenu.Label> : null}
          {organizations?.map((organization) => (
            <DropdownMenu.Item key={organization.id} className="menu-item" onSelect={() => navigate(routePath('organization', { organizationID: organization.id }))}>
              <span className="menu-item-text">{organization.name}</span>
              {organization.id === current?.id ? <Check aria-hidden="true" size={16} /> : null}
            </DropdownMenu.Item>
          ))}
          {organizations?.length ? <DropdownMenu.Separator className="menu-separator" /> : null}
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate(routePath('newOrganization'))}>
            <Plus aria-hidden="true" size={16} />
            {format('nav.newOrganization')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
