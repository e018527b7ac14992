/**
 * Mail (docs/mail.md): the project's app-user mails in three parts, each in the URL (`tab`):
 * Templates (`kind` chooses one), Sender and the Delivery log (its search, filters, page and open
 * mail). Every member reads it all; the edit controls show for those whose rights allow the change
 * (definitions/mail.ts `mailRights`) — the server enforces them either way.
 */
import '../../../definitions/messages/areas/mail.ts';
import { useId } from 'react';
import { Tabs } from 'radix-ui';
import { useSearchParams } from 'react-router';
import { mailTemplateKinds, type MailTemplateKind } from '../../../definitions/mail.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useMe } from '../../api/queries.ts';
import { useMyPermissions, useProjectActions, useProjectIds } from '../project/project-context.ts';
import { DeliveryLogPanel, readLogPlace, type LogPlace } from './DeliveryLogPanel.tsx';
import { SenderPanel } from './SenderPanel.tsx';
import { TemplatesPanel } from './TemplatesPanel.tsx';
import './mail.css';

const tabs = ['templates', 'sender', 'log'] as const;
type Tab = (typeof tabs)[number];
/** Each tab's own keys in the URL, dropped when another tab is chosen. */
const tabKeys: Record<Tab, readonly string[]> = { templates: ['kind'], sender: [], log: ['search', 'state', 'template', 'page', 'mail'] };

export default function MailScreen() {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const scope = { organizationID, projectID };
  const actions = useProjectActions();
  const loaded = useMyPermissions() !== null;
  const { data: me } = useMe();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = tabs.includes(tabParam as Tab) ? (tabParam as Tab) : 'templates';
  const kindParam = params.get('kind');
  const kind: MailTemplateKind = mailTemplateKinds.includes(kindParam as MailTemplateKind) ? (kindParam as MailTemplateKind) : 'verification';
  const place = readLogPlace(params);
  // The rights of definitions/mail.ts `mailRights`: every change is an organization admin's.
  const canEdit = actions.admin;

  const setTab = (next: string) =>
    setParams((previous) => {
      const result = new URLSearchParams(previous);
      for (const key of Object.values(tabKeys).flat()) result.delete(key);
      if (next === 'templates') result.delete('tab');
      else result.set('tab', next);
      return result;
    });

  const setKind = (next: MailTemplateKind) =>
    setParams((previous) => {
      const result = new URLSearchParams(previous);
      if (next === 'verification') result.delete('kind');
      else result.set('kind', next);
      return result;
    });

  const go = (changes: Partial<Record<keyof LogPlace, string | number | null>>) =>
    setParams(
      (previous) => {
        const result = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === undefined || value === '') result.delete(key);
          else result.set(key, String(value));
        }
        return result;
      },
      // Typing a search replaces the entry; a page, a filter or an opened mail can be gone back from.
      { replace: Object.keys(changes).includes('search') },
    );

  return (
    <section className="panel mail-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`}>{format('route.viewMail.title')}</h2>
      </div>
      <p className="muted">{format('mail.screen.intro')}</p>
      {!loaded || canEdit ? null : (
        <p className="callout-info" role="note">
          {format('mail.screen.readOnly')}
        </p>
      )}
      <Tabs.Root className="tabs" value={tab} activationMode="manual" onValueChange={setTab}>
        <Tabs.List className="tab-list" aria-label={format('mail.screen.tabs')}>
          <Tabs.Trigger className="tab" value="templates">
            {format('mail.screen.tab.templates')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="sender">
            {format('mail.screen.tab.sender')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="log">
            {format('mail.screen.tab.log')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="templates">
          {tab === 'templates' ? <TemplatesPanel scope={scope} kind={kind} onKind={setKind} canEdit={canEdit} myEmail={me?.email ?? null} /> : null}
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="sender">
          {tab === 'sender' ? <SenderPanel scope={scope} canEdit={canEdit} /> : null}
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="log">
          {tab === 'log' ? <DeliveryLogPanel scope={scope} place={place} go={go} canResend={actions.admin} /> : null}
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}
