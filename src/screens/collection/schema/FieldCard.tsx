/**
 * One field of a schema level, driven by the field-draft machine: a draft with
 * its attributes, Discard and the tick; a saved field that opens for editing, saves ("Field
 * Updated") or is deleted in two clicks (Delete, then Confirm Delete).
 */
import { useEffect, useId, useMemo, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useMachine } from '@xstate/react';
import { Check, Pencil, Trash2, X } from 'lucide-react';
import type { FieldDraftProblem } from '../../../../definitions/field-draft-rules.ts';
import { fieldDraftMessageKeys } from '../../../../definitions/field-draft-rules.ts';
import { fieldType } from '../../../../definitions/field-types/index.ts';
import type { SchemaField } from '../../../../definitions/field-types/types.ts';
import { hasMessage, type MessageKey } from '../../../../definitions/messages/format.ts';
import { fieldDraftMachine, type FieldDraftError } from '../../../../machines/field-draft.ts';
import { FieldTypeIcon } from '../../../../renderers/fields/FieldTypeIcon.tsx';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { problemText } from '../../../hooks/problem-text.ts';
import type { Collection, ProjectScope } from '../../../api/content.ts';
import { FieldAttributes } from './FieldAttributes.tsx';
import { useFieldActors, type SchemaLevelPlace } from './use-field-actors.ts';

export interface SchemaActions {
  create: boolean;
  update: boolean;
  delete: boolean;
}

export interface FieldCardProps {
  scope: ProjectScope;
  place: SchemaLevelPlace;
  /** 0 at the top schema level. */
  depth: number;
  /** A saved field: the card starts closed. */
  field?: SchemaField;
  /** The picker's choice: the card starts as a draft. */
  type?: number;
  siblingSlugs: readonly string[];
  collections: readonly Collection[] | undefined;
  actions: SchemaActions;
  /** The drag handle, for a field of a sortable list. */
  handle?: ReactNode;
  focusOnMount?: boolean;
  /** The schema builder of a nested collection field, drawn while the field is open. */
  renderNested?: (field: SchemaField) => ReactNode;
  onSaved?: (field: SchemaField) => void;
  onDiscarded?: () => void;
  onDeleted?: (fieldId: string) => void;
}

const openStates = ['opened', 'updating', 'confirmingDelete', 'deleting'];

/** A label key of the registry, checked against the catalogue. */
export function typeLabelKey(code: number): MessageKey {
  const key = fieldType(code)?.labelKey ?? '';
  return hasMessage(key) ? key : 'fieldDraft.typeUnknown';
}

export function FieldCard(props: FieldCardProps) {
  const { scope, place, depth, field, type, siblingSlugs, collections, actions, handle, focusOnMount, renderNested } = props;
  const format = useFormat();
  const idBase = useId().replace(/:/g, '');
  const actors = useFieldActors(scope, place);
  const logic = useMemo(() => fieldDraftMachine.provide({ actors }), [actors]);
  const collectionIDs = collections?.map((collection) => collection.id);
  const [state, send] = useMachine(logic, {
    input: {
      collectionID: place.collectionID,
      ...(place.path ? { nestedID: place.path } : {}),
      siblingSlugs,
      ...(collectionIDs ? { collectionIDs } : {}),
      ...(field ? { field } : { type: type ?? 0 }),
    },
  });

  const value = String(state.value);
  const { draft, problems, error } = state.context;
  const saved = state.context.saved ?? field ?? null;
  const isDraft = value === 'draft' || value === 'saving';
  const isOpen = openStates.includes(value);
  const busy = state.hasTag('busy');
  const canSave = state.can({ type: 'SAVE' });

  const nameRef = useRef<HTMLInputElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  // Tell the level about endings, and keep focus where the person's next step is.
  const previous = useRef(value);
  const latestProps = useRef(props);
  latestProps.current = props;
  useEffect(() => {
    const before = previous.current;
    previous.current = value;
    if (before === value) return;
    const { onSaved, onDiscarded, onDeleted } = latestProps.current;
    if (value === 'discarded') onDiscarded?.();
    else if (value === 'deleted' && saved) onDeleted?.(saved.id);
    else if (value === 'saved' && before === 'saving' && state.context.saved) onSaved?.(state.context.saved);
    else if (value === 'saved') editRef.current?.focus();
    else if (value === 'opened' && before === 'saved') nameRef.current?.focus();
    else if (value === 'confirmingDelete') confirmRef.current?.focus();
    else if (value === 'opened' && before === 'confirmingDelete') deleteRef.current?.focus();
  }, [value, saved, state.context.saved]);

  useEffect(() => {
    if (!focusOnMount) return;
    if (isDraft) nameRef.current?.focus();
    else editRef.current?.focus();
    // Only when the card appears.
  }, []);

  if (value === 'discarded' || value === 'deleted') return null;

  const typeCode = isDraft ? draft.type : (saved?.type ?? draft.type);
  const registered = fieldType(typeCode);
  const typeLabel = format(typeLabelKey(typeCode));
  const editable = registered?.capabilities.creatable ?? false;
  const hasNestedSchema = registered?.settings.includes('nestedCollectionSchema') ?? false;
  // Under the builder's h2 at the top; under the nested level's own heading further down.
  const Heading = `h${Math.min(depth ? 4 + depth : 3, 6)}` as 'h3';
  const summaryId = `${idBase}-summary`;
  const panelId = `${idBase}-panel`;

  const onPanelKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    // Escape on a drag handle cancels the drag, nothing else.
    if (event.target instanceof Element && event.target.closest('[data-drag-handle]')) return;
    if (value === 'confirmingDelete') send({ type: 'CANCEL_DELETE' });
    else if (value === 'opened') send({ type: 'CLOSE' });
    else return;
    event.stopPropagation();
  };

  const summary = !canSave && !busy ? <SaveSummary id={summaryId} problems={problems} opened={!isDraft} /> : null;
  const attributes = (
    <FieldAttributes
      idBase={idBase}
      draft={draft}
      isDraft={isDraft}
      problems={problems}
      send={send}
      disabled={busy || value === 'confirmingDelete'}
      collectionID={place.collectionID}
      collections={collections}
      nameRef={nameRef}
    />
  );
  const saveButton = (
    <button
      type="button"
      className="button button-primary"
      disabled={!canSave}
      aria-describedby={summary ? summaryId : undefined}
      onClick={() => send({ type: 'SAVE' })}
    >
      <Check aria-hidden="true" size={18} />
      {busy && value !== 'deleting' ? format('form.saving') : format('schemaField.save')}
    </button>
  );

  if (isDraft) {
    return (
      <section className="field-card field-card-draft" aria-labelledby={`${idBase}-title`} onKeyDown={onPanelKeyDown} aria-busy={busy || undefined}>
        <div className="field-card-header">
          <span className="field-card-icon">
            <FieldTypeIcon name={registered?.icon} />
          </span>
          <Heading className="field-card-title" id={`${idBase}-title`}>
            {format('schemaBuilder.newFieldOf', { type: typeLabel })}
          </Heading>
        </div>
        <div className="field-card-body">
          {attributes}
          {hasNestedSchema ? <p className="field-help">{format('schemaField.nestedAfterSave')}</p> : null}
          <ServerError error={error} />
          <div className="field-card-actions">
            {summary}
            <button type="button" className="button" disabled={busy} onClick={() => send({ type: 'DISCARD' })}>
              <X aria-hidden="true" size={18} />
              {format('schemaField.discard')}
            </button>
            {saveButton}
          </div>
        </div>
      </section>
    );
  }

  if (!saved) return null;
  const titleId = `${idBase}-title`;
  return (
    <div className={isOpen ? 'field-card field-card-open' : 'field-card'} onKeyDown={isOpen ? onPanelKeyDown : undefined} aria-busy={busy || undefined}>
      <div className="field-card-header">
        {handle}
        <span className="field-card-icon">
          <FieldTypeIcon name={registered?.icon} />
        </span>
        <SavedFieldHeading field={saved} typeLabel={typeLabel} titleId={titleId} />
        {!editable ? (
          <span className="field-card-system muted">{format('schemaBuilder.systemField')}</span>
        ) : actions.update || actions.delete || (hasNestedSchema && actions.create) ? (
          <button
            ref={editRef}
            type="button"
            className="icon-button field-card-edit"
            aria-label={format('schemaBuilder.edit', { name: saved.name })}
            aria-expanded={isOpen}
            aria-controls={isOpen ? panelId : undefined}
            disabled={busy}
            onClick={() => send({ type: isOpen ? 'CLOSE' : 'OPEN' })}
          >
            <Pencil aria-hidden="true" size={18} />
          </button>
        ) : null}
      </div>
      {isOpen ? (
        <div className="field-card-body" id={panelId} role="group" aria-labelledby={titleId}>
          {attributes}
          <ServerError error={error} />
          {value === 'confirmingDelete' ? (
            <ConfirmDelete warningId={`${idBase}-warning`} confirmRef={confirmRef} onCancel={() => send({ type: 'CANCEL_DELETE' })} onConfirm={() => send({ type: 'CONFIRM_DELETE' })} />
          ) : (
            <div className="field-card-actions">
              {actions.delete ? (
                <button ref={deleteRef} type="button" className="button button-danger field-card-delete" disabled={busy} onClick={() => send({ type: 'DELETE' })}>
                  <Trash2 aria-hidden="true" size={18} />
                  {value === 'deleting' ? format('form.deleting') : format('schemaField.delete')}
                </button>
              ) : null}
              {actions.update ? summary : null}
              <button type="button" className="button" disabled={busy} onClick={() => send({ type: 'CLOSE' })}>
                {format('schemaField.close')}
              </button>
              {actions.update ? saveButton : null}
            </div>
          )}
          {hasNestedSchema && renderNested ? renderNested(saved) : null}
        </div>
      ) : null}
    </div>
  );
}

/** A saved field's name, slug, type and badges, in its card's header. */
function SavedFieldHeading({ field, typeLabel, titleId }: { field: SchemaField; typeLabel: string; titleId: string }) {
  const format = useFormat();
  return (
    <span className="field-card-heading">
      <span className="field-card-name" id={titleId}>
        {field.name}
      </span>
      <span className="field-card-meta">
        <code>{field.slug}</code>
        <span className="field-card-type">{typeLabel}</span>
        {field.primaryField ? <span className="badge">{format('schemaBuilder.badge.primary')}</span> : null}
        {field.required ? <span className="badge">{format('schemaBuilder.badge.required')}</span> : null}
        {field.unique ? <span className="badge">{format('schemaBuilder.badge.unique')}</span> : null}
        {field.visible === false ? <span className="badge">{format('schemaBuilder.badge.hidden')}</span> : null}
      </span>
    </span>
  );
}

/** The second click of deleting a field: the warning, Cancel and Confirm Delete (focused when it appears). */
function ConfirmDelete({ warningId, confirmRef, onCancel, onConfirm }: { warningId: string; confirmRef: RefObject<HTMLButtonElement | null>; onCancel: () => void; onConfirm: () => void }) {
  const format = useFormat();
  return (
    <div className="field-card-actions field-card-confirm">
      <p className="field-delete-warning" id={warningId}>
        {format('schemaField.deleteWarning')}
      </p>
      <button type="button" className="button" onClick={onCancel}>
        {format('form.cancel')}
      </button>
      <button ref={confirmRef} type="button" className="button button-danger" aria-describedby={warningId} onClick={onConfirm}>
        <Trash2 aria-hidden="true" size={18} />
        {format('schemaField.confirmDelete')}
      </button>
    </div>
  );
}

/** Why the tick is disabled, in the rules' words. */
function SaveSummary({ id, problems, opened }: { id: string; problems: readonly FieldDraftProblem[]; opened: boolean }) {
  const format = useFormat();
  if (problems.length === 0) {
    return opened ? (
      <p className="field-card-summary muted" id={id}>
        {format('schemaField.noChanges')}
      </p>
    ) : null;
  }
  const codes = [...new Set(problems.map((problem) => problem.code))];
  return (
    <div className="field-card-summary" id={id}>
      <span className="visually-hidden">{format('schemaField.toSave')}</span>
      <ul>
        {codes.map((code) => (
          <li key={code}>{format(fieldDraftMessageKeys[code])}</li>
        ))}
      </ul>
    </div>
  );
}

/** What the server answered when it refused the field; the machine keeps it until the next try. */
function ServerError({ error }: { error: FieldDraftError | null }) {
  const format = useFormat();
  if (!error) return null;
  const detail = problemText(error, format);
  return (
    <div className="callout-error" role="alert">
      {error.errors.length ? <p>{format('schemaField.refused')}</p> : <p>{format('schemaField.failed', { detail })}</p>}
      {error.errors.length ? (
        <ul>
          {error.errors.map((entry) => (
            <li key={`${entry.path}:${entry.message}`}>
              <code>{entry.path}</code> {entry.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
