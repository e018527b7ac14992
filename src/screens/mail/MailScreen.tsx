/**
 * Mail (docs/mail.md): the project's app-user mails in three parts, each in the URL (`tab`):
 * Templates (`kind` chooses one), Sender and the Delivery log (its search, filters, page and open
 * mail). Every member reads it all; the edit controls show for those whose rights allow the change
 * (definitions/mail.ts `mailRights`) — the server enforces them either way.
 *
 * The templates' unsaved drafts live here, one per kind, so choosing another kind keeps them (the
 * kind list marks each); leaving the Templates tab — another tab, another page, a reload or closing
 * the tab — while any is unsaved asks the console's leave question first (docs/mail.md "The console").
 */
import '../../../definitions/messages/areas/mail.ts';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Tabs } from 'radix-ui';
import { useSearchParams, type BlockerFunction } from 'react-router';
import { leaveMailDialog } from '../../../definitions/dialogs/mail.ts';
import { mailTemplateKinds, type MailTemplateKind } from '../../../definitions/mail.ts';
import { DialogRenderer } from '../../../renderers/dialogs/DialogRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { MailTemplateInput } from '../../api/mail.ts';
import { useMailTemplates } from '../../api/mail-queries.ts';
import { useMe } from '../../api/queries.ts';
import { LeaveGuardHost, useLeaveGuard } from '../item/leave-guard.tsx';
import { useMyPermissions, useProjectActions, useProjectIds } from '../project/project-context.ts';
import { DeliveryLogPanel, readLogPlace, type LogPlace } from './DeliveryLogPanel.tsx';
import { SenderPanel } from './SenderPanel.tsx';
import { isUnsaved, TemplatesPanel, type TemplateDrafts, type TemplateDraftChange } from './TemplatesPanel.tsx';
import './mail.css';

const tabs = ['templates', 'sender', 'log'] as const;
type Tab = (typeof tabs)[number];
/** Each tab's own keys in the URL, dropped when another tab is chosen. */
const tabKeys: Record<Tab, readonly string[]> = { templates: ['kind'], sender: [], log: ['search', 'state', 'template', 'page', 'mail'] };
const tabOf = (params: URLSearchParams): Tab => {
  const value = params.get('tab');
  return tabs.includes(value as Tab) ? (value as Tab) : 'templates';
};

/** One navigation blocker for the screen (leave-guard.tsx), shared with any host around it. */
export default function MailScreen() {
  return (
    <LeaveGuardHost>
      <MailView />
    </LeaveGuardHost>
  );
}

function MailView() {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const scope = { organizationID, projectID };
  const actions = useProjectActions();
  const loaded = useMyPermissions() !== null;
  const { data: me } = useMe();
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params);
  const kindParam = params.get('kind');
  const kind: MailTemplateKind = mailTemplateKinds.includes(kindParam as MailTemplateKind) ? (kindParam as MailTemplateKind) : 'verification';
  const place = readLogPlace(params);
  // The rights of definitions/mail.ts `mailRights`: every change is an organization admin's.
  const canEdit = actions.admin;

  // Each kind's draft, kept while the person moves between kinds; unsaved when it differs from the stored text.
  const [drafts, setDrafts] = useState<TemplateDrafts>({});
  const templates = useMailTemplates(scope);
  const unsaved = mailTemplateKinds.some((value) => isUnsaved(drafts[value], templates.data?.find((entry) => entry.kind === value)));
  const changeDraft = useCallback((change: TemplateDraftChange) => {
    setDrafts((current) => {
      const next = typeof change.draft === 'function' ? change.draft(current[change.kind]) : change.draft;
      if (next === current[change.kind]) return current;
      const result = { ...current };
      if (next === undefined) delete result[change.kind];
      else result[change.kind] = next;
      return result;
    });
  }, []);

  // Another kind stays in the Templates tab and keeps the drafts; any other way out would lose them.
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      unsaved && (nextLocation.pathname !== currentLocation.pathname || tabOf(new URLSearchParams(nextLocation.search)) !== 'templates'),
    [unsaved],
  );
  const { held } = useLeaveGuard(shouldBlock);
  // Set when Stay or Leave answered, so the dialog's closing does not answer a second time.
  const answered = useRef(false);
  useEffect(() => {
    if (held?.state === 'blocked') answered.current = false;
  }, [held]);
  const answer = (leave: boolean) => {
    if (!held || held.state !== 'blocked' || answered.current) return;
    answered.current = true;
    if (leave) {
      setDrafts({});
      held.proceed();
    } else held.reset();
  };

  // Reloading or closing the tab with unsaved drafts: the browser asks.
  useEffect(() => {
    if (!unsaved) return undefined;
    const hold = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', hold);
    return () => window.removeEventListener('beforeunload', hold);
  }, [unsaved]);

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
          {tab === 'templates' ? (
            <TemplatesPanel scope={scope} kind={kind} onKind={setKind} canEdit={canEdit} myEmail={me?.email ?? null} drafts={drafts} onDraft={changeDraft} />
          ) : null}
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="sender">
          {tab === 'sender' ? <SenderPanel scope={scope} canEdit={canEdit} /> : null}
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="log">
          {tab === 'log' ? <DeliveryLogPanel scope={scope} place={place} go={go} canResend={actions.admin} /> : null}
        </Tabs.Content>
      </Tabs.Root>
      <DialogRenderer
        definition={leaveMailDialog}
        open={held?.state === 'blocked'}
        onOpenChange={(open) => {
          if (!open) answer(false);
        }}
        onAction={(action) => answer(action === 'leave')}
      />
    </section>
  );
}
