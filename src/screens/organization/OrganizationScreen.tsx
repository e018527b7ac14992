/**
 * The organization page: tabs Overview and Settings, one route each
 * (`organization`, `organizationSettings`), so either can be linked to and reloaded.
 */
import { Tabs } from 'radix-ui';
import { useMatches, useNavigate, useParams } from 'react-router';
import { myActions } from '../../../definitions/membership.ts';
import { routePath } from '../../../definitions/route-path.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useOrganization } from '../../api/platform-queries.ts';
import { useMe } from '../../api/queries.ts';
import { OverviewTab } from './OverviewTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';

type Tab = 'overview' | 'settings';

export default function OrganizationScreen() {
  const format = useFormat();
  const navigate = useNavigate();
  const organizationID = useParams().organizationID ?? '';
  const matches = useMatches();
  const tab: Tab = matches.some((match) => match.id === 'organizationSettings') ? 'settings' : 'overview';
  const { data: organization, isError } = useOrganization(organizationID);
  const { data: me } = useMe();
  const actions = organization && me ? myActions(organization.users, me) : null;

  return (
    <section className="page" aria-labelledby="organization-title">
      <header className="page-header">
        <h1 id="organization-title">{organization?.name ?? format(tab === 'settings' ? 'route.organizationSettings.title' : 'route.organization.title')}</h1>
      </header>
      {isError ? (
        <p role="alert" className="callout-error">
          {format('organization.loadFailed')}
        </p>
      ) : null}
      <Tabs.Root
        className="tabs"
        value={tab}
        activationMode="manual"
        onValueChange={(value) => navigate(routePath(value === 'settings' ? 'organizationSettings' : 'organization', { organizationID }))}
      >
        <Tabs.List className="tab-list" aria-label={format('organization.tabs')}>
          <Tabs.Trigger className="tab" value="overview">
            {format('organization.tab.overview')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="settings">
            {format('organization.tab.settings')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="overview">
          {organization && actions ? <OverviewTab organization={organization} canCreate={actions.create} /> : <Loading />}
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="settings">
          {organization && me && actions ? <SettingsTab organization={organization} me={me} isAdmin={actions.admin} /> : <Loading />}
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

function Loading() {
  const format = useFormat();
  return (
    <p className="muted" role="status">
      {format('app.loading')}
    </p>
  );
}
