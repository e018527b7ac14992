/**
 * What runs a function (docs/functions.md "The HTTP trigger", "Event and schedule triggers"): its
 * HTTP address (copyable), the public switch and the API token its data client acts with, the item
 * events (create, update, delete) and the lists it listens to (none chosen: every one), and a cron
 * schedule with its next run. One Save sends them all; the server's refusals show at their fields.
 * Members who are not admins see them read-only.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Switch } from 'radix-ui';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { isApiError } from '../../api/errors.ts';
import { functionAddress, type FunctionScope, type FunctionView } from '../../api/functions.ts';
import { useUpdateFunction } from '../../api/functions-queries.ts';
import { useApiTokens, useProject } from '../../api/platform-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { CopyButton } from '../../shell/CopyButton.tsx';
import { problemsByField, triggerListChoices } from './function-helpers.ts';
import { eventLabels } from './function-ui.tsx';

const itemEvents = ['create', 'update', 'delete'] as const;
type ItemEvent = (typeof itemEvents)[number];
const placed = ['public', 'apiTokenID', 'events', 'collections', 'schedule'];

export function TriggersPanel({ scope, fn, admin }: { scope: FunctionScope; fn: FunctionView; admin: boolean }) {
  // The form starts afresh from each saved state, so a save shows what the server kept.
  const [saved, setSaved] = useState(0);
  return <TriggersForm key={saved} scope={scope} fn={fn} admin={admin} onSaved={() => setSaved((n) => n + 1)} />;
}

function TriggersForm({ scope, fn, admin, onSaved }: { scope: FunctionScope; fn: FunctionView; admin: boolean; onSaved: () => void }) {
  const format = useFormat();
  const id = useId();
  const { data: project } = useProject(scope.organizationID, scope.projectID);
  const tokens = useApiTokens(scope.organizationID, scope.projectID, { enabled: admin });
  const update = useUpdateFunction(scope, fn.name);
  const choices = useMemo(() => triggerListChoices(project?.collections ?? []), [project?.collections]);
  const [isPublic, setPublic] = useState(fn.public);
  const [apiTokenID, setApiTokenID] = useState(fn.apiTokenID ?? '');
  const [events, setEvents] = useState<ItemEvent[]>(fn.events);
  const [lists, setLists] = useState<string[]>(fn.collections);
  const [schedule, setSchedule] = useState(fn.schedule ?? '');
  const address = functionAddress(window.location.origin, scope.projectID, fn.name);

  const problems = problemsByField(update.error);
  const unplaced = update.error && !Object.keys(problems).some((key) => placed.includes(key)) ? problemText(update.error, format) : null;
  const describedBy = (field: string, help?: boolean) => [problems[field] ? `${id}-${field}-error` : '', help ? `${id}-${field}-help` : ''].filter(Boolean).join(' ') || undefined;
  const fieldError = (field: string) =>
    problems[field] ? (
      <p id={`${id}-${field}-error`} className="field-error">
        {problems[field]}
      </p>
    ) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!admin || update.isPending) return;
    update.mutate(
      { public: isPublic, apiTokenID: apiTokenID || null, events, collections: lists, schedule: schedule.trim() || null },
      {
        onSuccess: () => {
          void notify({ kind: 'success', title: format('functions.triggers.saved') });
          onSaved();
        },
      },
    );
  };

  // The token's name for members who may not list the tokens: only that one is set.
  const tokenOptions = tokens.data ?? [];
  return (
    <form className="form function-triggers-form" data-part="triggers" aria-labelledby={`${id}-title`} noValidate onSubmit={submit}>
      <h3 id={`${id}-title`}>{format('functions.triggers.title')}</h3>

      <fieldset className="field function-fieldset" aria-describedby={`${id}-http-help`}>
        <legend className="field-label">{format('functions.trigger.http')}</legend>
        <div className="function-address-row">
          <code className="function-address" id={`${id}-address`}>
            {address}
          </code>
          <CopyButton value={address} label={format('functions.triggers.copyAddress')} />
        </div>
        <p id={`${id}-http-help`} className="field-help">
          {format('functions.triggers.httpHelp')}
        </p>
        <div className="switch-label">
          <Switch.Root id={`${id}-public`} className="switch" checked={isPublic} disabled={!admin} aria-labelledby={`${id}-public-label`} aria-describedby={describedBy('public', true)} onCheckedChange={setPublic}>
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          <label id={`${id}-public-label`} htmlFor={`${id}-public`}>
            {format('functions.triggers.public')}
          </label>
        </div>
        <p id={`${id}-public-help`} className="field-help">
          {format('functions.triggers.publicHelp')}
        </p>
        {fieldError('public')}
      </fieldset>

      <div className="field field-select">
        <label className="field-label" htmlFor={`${id}-token`}>
          {format('functions.triggers.token')}
        </label>
        <select
          id={`${id}-token`}
          className="input"
          value={apiTokenID}
          disabled={!admin}
          aria-invalid={problems.apiTokenID ? true : undefined}
          aria-describedby={describedBy('apiTokenID', true)}
          onChange={(event) => setApiTokenID(event.target.value)}
        >
          <option value="">{format('functions.triggers.noToken')}</option>
          {tokenOptions.map((token) => (
            <option key={token.id} value={token.id}>
              {token.name}
            </option>
          ))}
          {apiTokenID && !tokenOptions.some((token) => token.id === apiTokenID) ? <option value={apiTokenID}>{format('functions.triggers.tokenSet')}</option> : null}
        </select>
        <p id={`${id}-apiTokenID-help`} className="field-help">
          {format('functions.triggers.tokenHelp')}
        </p>
        {fieldError('apiTokenID')}
      </div>

      <fieldset className="field choices" aria-describedby={describedBy('events')}>
        <legend className="field-label">{format('functions.triggers.events')}</legend>
        {itemEvents.map((event) => (
          <label key={event} className="choice">
            <input
              type="checkbox"
              checked={events.includes(event)}
              disabled={!admin}
              onChange={(change) => setEvents((current) => (change.target.checked ? itemEvents.filter((e) => e === event || current.includes(e)) : current.filter((e) => e !== event)))}
            />
            {format(eventLabels[event])}
          </label>
        ))}
        {fieldError('events')}
      </fieldset>

      <fieldset className="field function-fieldset" aria-describedby={describedBy('collections', true)}>
        <legend className="field-label">{format('functions.triggers.lists')}</legend>
        {choices.length === 0 ? <p className="muted">{format('functions.triggers.noLists')}</p> : null}
        <div className="function-choice-list">
          {choices.map((choice) => (
            <label key={choice.value} className="choice" style={{ paddingInlineStart: `${choice.depth * 1.25}rem` }}>
              <input
                type="checkbox"
                checked={lists.includes(choice.value)}
                disabled={!admin}
                onChange={(event) => setLists((current) => (event.target.checked ? [...current, choice.value] : current.filter((value) => value !== choice.value)))}
              />
              {choice.label}
            </label>
          ))}
        </div>
        <p id={`${id}-collections-help`} className="field-help">
          {format('functions.triggers.listsHelp')}
        </p>
        {fieldError('collections')}
      </fieldset>

      <div className="field field-text">
        <label className="field-label" htmlFor={`${id}-schedule`}>
          {format('functions.triggers.schedule')}
        </label>
        <input
          id={`${id}-schedule`}
          className="input input-mono function-schedule"
          value={schedule}
          maxLength={100}
          spellCheck={false}
          autoComplete="off"
          placeholder="*/15 * * * *"
          readOnly={!admin}
          aria-invalid={problems.schedule ? true : undefined}
          aria-describedby={describedBy('schedule', true)}
          onChange={(event) => setSchedule(event.target.value)}
        />
        <p id={`${id}-schedule-help`} className="field-help">
          {format('functions.triggers.scheduleHelp')}{' '}
          {fn.schedule && fn.nextRunDate ? format('functions.trigger.nextRun', { date: formatDateTime(fn.nextRunDate) }) : null}
        </p>
        {fieldError('schedule')}
      </div>

      {unplaced || (update.error && isApiError(update.error) && !unplaced && Object.keys(problems).length) ? (
        <p role="alert" className="form-alert">
          {unplaced ?? format('functions.triggers.fixFields')}
        </p>
      ) : null}
      {admin ? (
        <div className="form-actions">
          <button type="submit" className="button button-primary" aria-disabled={update.isPending || undefined}>
            {format(update.isPending ? 'functions.triggers.saving' : 'functions.triggers.save')}
          </button>
        </div>
      ) : null}
    </form>
  );
}
