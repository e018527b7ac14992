/**
 * Project Settings → Restricted view (admins): the hidden-collections rule as data
 * (definitions/restricted-view.ts). Admins choose members of the organization and the collections
 * those members see; everyone else sees every collection. The server enforces it.
 */
import { useId, useState, type FormEvent } from 'react';
import { memberName } from '../../../definitions/membership.ts';
import type { RestrictedView } from '../../../definitions/restricted-view.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Member, RestrictedViewSettings } from '../../api/platform.ts';
import { useOrganization, useRestrictedView, useSetRestrictedView } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';

const lower = (email: string) => email.trim().toLowerCase();

export function RestrictedViewSection({ organizationID, projectID }: { organizationID: string; projectID: string }) {
  const format = useFormat();
  const { data: organization } = useOrganization(organizationID);
  const settings = useRestrictedView(organizationID, projectID);
  return (
    <section className="panel" aria-labelledby="project-restricted">
      <h3 id="project-restricted">{format('restrictedView.title')}</h3>
      <p className="muted">{format('restrictedView.explain')}</p>
      {settings.isError ? (
        <p role="alert" className="form-alert">
          {format('restrictedView.loadFailed')}
        </p>
      ) : null}
      {settings.data && organization ? (
        <RestrictedViewForm
          // A new answer from the server starts the choices afresh.
          key={JSON.stringify(settings.data.restrictedView)}
          organizationID={organizationID}
          projectID={projectID}
          settings={settings.data}
          members={organization.users}
        />
      ) : null}
    </section>
  );
}

interface FormProps {
  organizationID: string;
  projectID: string;
  settings: RestrictedViewSettings;
  members: Member[];
}

function RestrictedViewForm({ organizationID, projectID, settings, members }: FormProps) {
  const format = useFormat();
  const id = useId();
  const problemMessage = useProblemMessage();
  const save = useSetRestrictedView(organizationID, projectID);
  const current = settings.restrictedView;
  const [chosenMembers, setChosenMembers] = useState<Set<string>>(() => new Set(current?.members.map(lower) ?? []));
  const [chosenCollections, setChosenCollections] = useState<Set<string>>(() => new Set(current?.collections ?? []));

  const toggle = (set: Set<string>, value: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const send = (view: RestrictedView | null) => {
    if (save.isPending) return;
    save.mutate(view, {
      onSuccess: () => void notify({ kind: 'success', title: format(view ? 'restrictedView.saved' : 'restrictedView.turnedOff') }),
      onError: (error) => void notify({ kind: 'error', title: format('restrictedView.saveFailed'), description: problemMessage(error) }),
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosenMembers.size === 0) return;
    // The order of the lists on screen, so the stored setting reads like the form.
    send({
      members: members.map((m) => lower(m.email)).filter((email) => chosenMembers.has(email)),
      collections: settings.collections.map((c) => c.id).filter((collectionID) => chosenCollections.has(collectionID)),
    });
  };

  const noMember = chosenMembers.size === 0;
  return (
    <form className="form" aria-labelledby="project-restricted" onSubmit={submit} noValidate>
      <p role="status">
        {current
          ? format('restrictedView.on', { members: current.members.length, collections: current.collections.length })
          : format('restrictedView.off')}
      </p>
      <fieldset className="choices choices-column">
        <legend className="field-label">{format('restrictedView.members')}</legend>
        {members.map((member) => {
          const email = lower(member.email);
          const inputId = `${id}-member-${email}`;
          return (
            <label className="choice" key={email} htmlFor={inputId}>
              <input
                id={inputId}
                type="checkbox"
                checked={chosenMembers.has(email)}
                onChange={(event) => setChosenMembers((set) => toggle(set, email, event.target.checked))}
              />
              {member.status === 'invited' ? format('restrictedView.invitedMember', { email: member.email }) : format('restrictedView.member', { name: memberName(member), email: member.email })}
            </label>
          );
        })}
      </fieldset>
      <fieldset className="choices choices-column">
        <legend className="field-label">{format('restrictedView.collections')}</legend>
        {settings.collections.length === 0 ? <p className="muted">{format('restrictedView.noCollections')}</p> : null}
        {settings.collections.map((collection) => {
          const inputId = `${id}-collection-${collection.id}`;
          return (
            <label className="choice" key={collection.id} htmlFor={inputId}>
              <input
                id={inputId}
                type="checkbox"
                checked={chosenCollections.has(collection.id)}
                onChange={(event) => setChosenCollections((set) => toggle(set, collection.id, event.target.checked))}
              />
              {collection.name}
            </label>
          );
        })}
      </fieldset>
      {noMember ? (
        <p className="muted" id={`${id}-hint`}>
          {format('restrictedView.chooseMember')}
        </p>
      ) : null}
      <div className="form-actions">
        {current ? (
          <button type="button" className="button" aria-disabled={save.isPending || undefined} onClick={() => send(null)}>
            {format('restrictedView.turnOff')}
          </button>
        ) : null}
        <button
          type="submit"
          className="button button-primary"
          disabled={noMember}
          aria-describedby={noMember ? `${id}-hint` : undefined}
          aria-disabled={save.isPending || undefined}
        >
          {format(save.isPending ? 'form.saving' : 'restrictedView.save')}
        </button>
      </div>
    </form>
  );
}
