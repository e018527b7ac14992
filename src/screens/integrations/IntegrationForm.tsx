/**
 * The form of an integration instance, for adding one and for editing it (docs/integrations.md
 * "The console"): its name, the collections it names, the item events it reacts to, its schedule,
 * and the catalogue entry's settings drawn by the generic form renderer with the entry's compiled
 * validator. The instance's own fields are drawn above the settings, inside the same form, so one
 * Save sends all of it. A stored secret is never shown: its input stays empty, and empty keeps it.
 * The server's `integration_invalid` problems show at the fields they name (`settings/<name>`,
 * `name`, `collections`, `events`, `schedule`).
 */
import { useId, useMemo, useState } from 'react';
import { itemEvents, type IntegrationDefinition } from '../../../definitions/integrations/index.ts';
import type { FormDefinition } from '../../../definitions/forms/types.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { FormRenderer, type FieldState } from '../../../renderers/forms/FormRenderer.tsx';
import type { FormValues } from '../../../renderers/forms/standalone-resolver.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { isApiError } from '../../api/errors.ts';
import type { IntegrationInstance, IntegrationInstanceUpdate } from '../../api/integrations.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { settingsValidators } from './settings-validators.ts';
import { collectionChoices, type CollectionChoiceSource } from '../project/list-choices.ts';

type ItemEvent = (typeof itemEvents)[number];

export const eventLabels: Readonly<Record<ItemEvent, MessageKey>> = {
  create: 'integrations.event.create',
  update: 'integrations.event.update',
  delete: 'integrations.event.delete',
};


/** What the form sends: the whole instance (a new one gets `integration` added by its screen). */
export type IntegrationFormValues = Required<Pick<IntegrationInstanceUpdate, 'name' | 'collections' | 'events' | 'settings'>> & { schedule?: string | null };

/** The server's problems of the last submit, by field: `settings/x` to the settings form, the rest to ours. */
export function problemsByField(error: unknown): { own: Record<string, string>; settings: Record<string, string> } {
  const own: Record<string, string> = {};
  const settings: Record<string, string> = {};
  if (!isApiError(error) || !error.problem) return { own, settings };
  for (const entry of error.problem.errors ?? []) {
    const parts = entry.path.split('/').filter(Boolean);
    const message = entry.message || error.detail;
    if (parts[0] === 'settings' && parts[1]) settings[parts[1]] ??= message;
    else if (parts[0]) own[parts[0]] ??= message;
  }
  return { own, settings };
}

export interface IntegrationFormProps {
  entry: IntegrationDefinition;
  /** The stored instance when editing; absent when adding. */
  instance?: IntegrationInstance | undefined;
  collections: readonly CollectionChoiceSource[];
  busy: boolean;
  /** The last submit's failure, shown at its fields. */
  error: unknown;
  submitLabel: MessageKey;
  submittingLabel: MessageKey;
  onSubmit: (values: IntegrationFormValues) => unknown;
  onCancel?: () => void;
  /** The id of a heading around the form that names it. */
  labelledBy: string;
}

export function IntegrationForm({ entry, instance, collections, busy, error, submitLabel, submittingLabel, onSubmit, onCancel, labelledBy }: IntegrationFormProps) {
  const format = useFormat();
  const id = useId();
  const offeredEvents = itemEvents.filter((event) => entry.events.includes(event));
  const scheduled = entry.events.includes('schedule');
  const choices = useMemo(() => collectionChoices(collections, entry.collections === 'many'), [collections, entry.collections]);

  const [name, setName] = useState(instance?.name ?? format(entry.name));
  const [chosen, setChosen] = useState<string[]>(() => instance?.collections ?? (entry.collections === 'one' && collections[0] ? [collections[0].id] : []));
  const [events, setEvents] = useState<ItemEvent[]>(() => instance?.events ?? [...offeredEvents]);
  const [schedule, setSchedule] = useState(instance?.schedule ?? '');
  const [nameError, setNameError] = useState<string | null>(null);

  const problems = problemsByField(error);
  const ownErrors: Record<string, string> = { ...problems.own, ...(nameError ? { name: nameError } : {}) };
  const settingsFields = new Set(entry.settings.fields.map((field) => field.name));
  const unplaced = isApiError(error) && Object.keys(problems.settings).length === 0 && !Object.keys(problems.own).some((key) => ['name', 'collections', 'events', 'schedule'].includes(key));
  const formError = error ? (unplaced ? problemText(error, format) : format('integrations.form.fixFields')) : null;

  const definition = useMemo<FormDefinition>(() => ({ ...entry.settings, submit: submitLabel, submitting: submittingLabel }), [entry.settings, submitLabel, submittingLabel]);
  const defaultValues = useMemo(() => {
    const values: Record<string, string> = {};
    for (const field of entry.settings.fields) {
      if (entry.secrets.includes(field.name)) continue;
      const stored = instance?.settings[field.name];
      if (typeof stored === 'string') values[field.name] = stored;
      else if (!instance && field.widget === 'select' && field.options?.[0]) values[field.name] = field.options[0].value;
    }
    return values;
  }, [entry, instance]);
  const fieldStates = useMemo(() => {
    const states: Record<string, FieldState> = {};
    for (const secret of entry.secrets) {
      if (instance?.secretsSet[secret]) states[secret] = { help: format('integrations.form.secretStored') };
    }
    return states;
  }, [entry.secrets, instance, format]);

  const submit = (values: FormValues) => {
    if (!name.trim()) {
      setNameError(format('integrations.form.nameRequired'));
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    setNameError(null);
    const settings: Record<string, unknown> = {};
    for (const field of settingsFields) {
      const value = values[field];
      if (value !== undefined) settings[field] = value;
      // A cleared setting is sent empty ("not set"); a secret left empty is left out (kept).
      else if (!entry.secrets.includes(field)) settings[field] = '';
    }
    return onSubmit({
      name: name.trim(),
      collections: chosen,
      events: offeredEvents.length ? events : [],
      ...(scheduled ? { schedule: schedule.trim() || null } : {}),
      settings,
    });
  };

  const describedBy = (field: string, help?: boolean) => [ownErrors[field] ? `${id}-${field}-error` : '', help ? `${id}-${field}-help` : ''].filter(Boolean).join(' ') || undefined;
  const fieldError = (field: string) =>
    ownErrors[field] ? (
      <p id={`${id}-${field}-error`} className="field-error">
        {ownErrors[field]}
      </p>
    ) : null;

  const own = (
    <div className="integration-own-fields">
      <div className="field field-text" data-field="name">
        <label className="field-label" htmlFor={`${id}-name`}>
          {format('integrations.form.name')}
        </label>
        <input
          id={`${id}-name`}
          className="input"
          value={name}
          maxLength={100}
          required
          aria-required="true"
          aria-invalid={ownErrors.name ? true : undefined}
          aria-describedby={describedBy('name')}
          onChange={(event) => setName(event.target.value)}
        />
        {fieldError('name')}
      </div>

      {entry.collections === 'one' ? (
        <div className="field field-select" data-field="collections">
          <label className="field-label" htmlFor={`${id}-collections`}>
            {format('integrations.form.collection')}
          </label>
          <select
            id={`${id}-collections`}
            className="input"
            value={chosen[0] ?? ''}
            aria-invalid={ownErrors.collections ? true : undefined}
            aria-describedby={describedBy('collections')}
            onChange={(event) => setChosen(event.target.value ? [event.target.value] : [])}
          >
            <option value="">{format('integrations.form.chooseCollection')}</option>
            {choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
          {fieldError('collections')}
        </div>
      ) : (
        <fieldset className="field integration-collections" data-field="collections" aria-describedby={describedBy('collections', true)}>
          <legend className="field-label">{format('integrations.form.collections')}</legend>
          {choices.length === 0 ? <p className="muted">{format('integrations.form.noCollections')}</p> : null}
          <div className="integration-choice-list">
            {choices.map((choice) => (
              <label key={choice.value} className="choice" style={{ paddingInlineStart: `${choice.depth * 1.25}rem` }}>
                <input
                  type="checkbox"
                  checked={chosen.includes(choice.value)}
                  onChange={(event) => setChosen((current) => (event.target.checked ? [...current, choice.value] : current.filter((value) => value !== choice.value)))}
                />
                {choice.label}
              </label>
            ))}
          </div>
          <p id={`${id}-collections-help`} className="field-help">
            {format('integrations.form.collectionsHelp')}
          </p>
          {fieldError('collections')}
        </fieldset>
      )}

      {offeredEvents.length ? (
        <fieldset className="field choices" data-field="events" aria-describedby={describedBy('events')}>
          <legend className="field-label">{format('integrations.form.events')}</legend>
          {offeredEvents.map((event) => (
            <label key={event} className="choice">
              <input
                type="checkbox"
                checked={events.includes(event)}
                onChange={(change) => setEvents((current) => (change.target.checked ? offeredEvents.filter((e) => e === event || current.includes(e)) : current.filter((e) => e !== event)))}
              />
              {format(eventLabels[event])}
            </label>
          ))}
          {fieldError('events')}
        </fieldset>
      ) : null}

      {scheduled ? (
        <div className="field field-text" data-field="schedule">
          <label className="field-label" htmlFor={`${id}-schedule`}>
            {format('integrations.form.schedule')}
          </label>
          <input
            id={`${id}-schedule`}
            className="input input-mono"
            value={schedule}
            maxLength={100}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={ownErrors.schedule ? true : undefined}
            aria-describedby={describedBy('schedule', true)}
            onChange={(event) => setSchedule(event.target.value)}
          />
          <p id={`${id}-schedule-help`} className="field-help">
            {format('integrations.form.scheduleHelp')}
          </p>
          {fieldError('schedule')}
        </div>
      ) : null}
      <h4 className="integration-settings-title">{format('integrations.form.settingsOf', { name: format(entry.name) })}</h4>
    </div>
  );

  return (
    <FormRenderer
      definition={definition}
      validate={settingsValidators[entry.id]!}
      onSubmit={submit}
      busy={busy}
      error={formError}
      fieldErrors={problems.settings}
      defaultValues={defaultValues}
      intro={own}
      labelledBy={labelledBy}
      fieldStates={fieldStates}
      {...(onCancel ? { onCancel } : {})}
    />
  );
}
