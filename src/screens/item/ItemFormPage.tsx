/**
 * The item page (content §2 "Item page", §4, §5, §8) drawn from the item-form machine: the
 * navigation bar (title, Close, Update or Create Item, the menu), one FieldEditor per schema
 * field, the conflict chooser after a 409, and the delete and leave confirmations. The page only
 * provides the machine's I/O: the item calls, the toasts, the navigations and the stored
 * "Close after saving" choice. Navigations the person starts elsewhere (links, the browser's
 * back) are held by react-router's blocker while there are unsaved changes and asked about.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useBlocker, useNavigate, type Location } from 'react-router';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { Check, MoreHorizontal, X } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { deleteItemDialog, leaveItemDialog } from '../../../definitions/dialogs/item.ts';
import { fieldType, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { itemFormMachine, type ItemFormDestination, type ItemNotice } from '../../../machines/item-form.ts';
import type { ItemValues } from '../../../machines/item-form-rules.ts';
import { DialogRenderer } from '../../../renderers/dialogs/DialogRenderer.tsx';
import { EditorEnvironmentProvider, type EditorEnvironment } from '../../../renderers/fields/editor-environment.ts';
import { FieldEditor } from '../../../renderers/fields/FieldEditor.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Collection, Item, ProjectScope } from '../../api/content.ts';
import { useContentApi, useItemCalls } from '../../api/content-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectActions, useProjectPath } from '../project/project-context.ts';
import { loadCloseAfterSaving, saveCloseAfterSaving } from './close-after-saving.ts';
import { ConflictPanel } from './ConflictPanel.tsx';
import './item.css';
import { saveCsv } from '../items/save-csv.ts';

/** A nested item: the top-level item it hangs under and the nestedID of its list (ending in a slug). */
export interface NestedPlace {
  parentItemID: string;
  listNestedID: string;
}

export interface ItemFormPageProps {
  scope: ProjectScope;
  collection: Collection;
  /** The schema of the item's level (a nested collection's for a nested item). */
  schema: readonly SchemaField[];
  /** Null for a new item. */
  itemID: string | null;
  nested?: NestedPlace | undefined;
  /** Drawn as the single-item view of its collection (content §2): the menu differs, Close leaves the collection. */
  singleView?: boolean;
  /** A new item's first values (a duplicate's copy) and whether they count as a change. */
  initialValues?: ItemValues | undefined;
  markedChanged?: boolean | undefined;
  /** The single-item view shows its item again (after saving or deleting there). */
  onShowSingleItem?: (() => void) | undefined;
}

/** How the page names an item: its primary field, else its first text field, when set. */
export function itemName(schema: readonly SchemaField[], item: ItemValues | null): string | null {
  if (!item) return null;
  const field = schema.find((candidate) => candidate.primaryField) ?? schema.find((candidate) => fieldType(candidate.type)?.name === 'PlainText');
  const value = field ? item[field.slug] : undefined;
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

export function ItemFormPage({ scope, collection, schema, itemID, nested, singleView = false, initialValues, markedChanged, onShowSingleItem }: ItemFormPageProps) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const navigate = useNavigate();
  const path = useProjectPath();
  const actions = useProjectActions();
  const api = useContentApi();
  const calls = useItemCalls(scope, collection.id);
  const id = useId();
  const collectionID = collection.id;

  // Set just before the page itself navigates, so the blocker lets its own navigations through.
  const leaving = useRef(false);
  const blockerRef = useRef<ReturnType<typeof useBlocker> | null>(null);

  const go = (destination: ItemFormDestination) => {
    const listPath = nested
      ? path('viewNestedCollection', { collectionID, itemID: nested.parentItemID, nestedID: nested.listNestedID })
      : path('viewCollection', { collectionID });
    leaving.current = true;
    switch (destination.kind) {
      case 'list':
        navigate(listPath);
        return;
      case 'singleItem':
        if (onShowSingleItem) onShowSingleItem();
        else navigate(path('viewCollection', { collectionID }));
        return;
      case 'item':
        navigate(
          nested
            ? path('nestedItem', { collectionID, itemID: nested.parentItemID, nestedID: nested.listNestedID, collectionNestedID: destination.itemID })
            : path('viewItem', { collectionID, itemID: destination.itemID }),
        );
        return;
      case 'newItem':
        navigate(path('addItemToCollection', { collectionID }), { state: { itemValues: destination.values, markedChanged: true } });
        return;
      case 'elsewhere': {
        const blocker = blockerRef.current;
        if (blocker?.state === 'blocked') blocker.proceed();
        else if (typeof destination.to === 'string') navigate(destination.to);
        else if (destination.to && typeof destination.to === 'object') navigate(destination.to as Location);
        return;
      }
    }
  };
  const toast = (notice: ItemNotice) => void notify({ kind: notice.tone, title: format(notice.key as MessageKey, notice.values) });
  // The machine is made once; what it calls is read through this ref, so it always sees this render's values.
  const io = useRef({ go, toast, calls });
  io.current = { go, toast, calls };

  const [logic] = useState(() =>
    itemFormMachine.provide({
      actors: {
        loadItem: fromPromise(({ input }) => io.current.calls.load(input)),
        saveItem: fromPromise(({ input }) => io.current.calls.save(input)),
        deleteItem: fromPromise(({ input }) => io.current.calls.remove(input)),
      },
      actions: {
        navigate: (_, params) => io.current.go(params.destination),
        notify: (_, params) => io.current.toast(params),
        persistCloseAfterSaving: (_, params) => saveCloseAfterSaving(params.value),
      },
    }),
  );
  const [snapshot, send, actorRef] = useMachine(logic, {
    input: {
      collectionID,
      schema,
      itemID,
      // A nested item's chain ends in its id; a new one's names its list.
      ...(nested ? { nestedID: itemID ? `${nested.listNestedID}.${itemID}` : nested.listNestedID, parentItemID: nested.parentItemID } : {}),
      singleItem: collection.singleItem,
      closeAfterSaving: loadCloseAfterSaving(),
      ...(initialValues ? { values: initialValues } : {}),
      markedChanged: markedChanged ?? false,
    },
  });
  const { context } = snapshot;

  const shouldBlock = useCallback(
    ({ currentLocation, nextLocation }: { currentLocation: Location; nextLocation: Location }) => {
      if (leaving.current) return false;
      if (currentLocation.pathname === nextLocation.pathname && currentLocation.search === nextLocation.search) return false;
      const now = actorRef.getSnapshot();
      return now.context.changed && now.matches('form');
    },
    [actorRef],
  );
  const blocker = useBlocker(shouldBlock);
  blockerRef.current = blocker;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const event = { type: 'LEAVE' as const, to: { kind: 'elsewhere' as const, to: blocker.location } };
    if (actorRef.getSnapshot().can(event)) send(event);
    else blocker.reset();
  }, [blocker, actorRef, send]);

  // Closing the tab or reloading with unsaved changes: the browser asks.
  useEffect(() => {
    if (!context.changed) return undefined;
    const hold = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', hold);
    return () => window.removeEventListener('beforeunload', hold);
  }, [context.changed]);

  const [problems, setProblems] = useState<Record<string, string>>({});
  const problemReporters = useMemo(() => {
    const reporters: Record<string, (message: string | undefined) => void> = {};
    for (const field of schema) {
      reporters[field.slug] = (message) =>
        setProblems((current) => {
          if ((current[field.slug] ?? undefined) === message) return current;
          const { [field.slug]: _gone, ...rest } = current;
          return message ? { ...rest, [field.slug]: message } : rest;
        });
    }
    return reporters;
  }, [schema]);

  const busy = snapshot.hasTag('busy');
  const loading = snapshot.matches('loading') || snapshot.matches('starting');
  const inConflict = snapshot.matches({ form: 'conflict' });
  const isNew = context.itemID === null;
  const allowed = isNew ? actions.create : actions.update;
  const canSave = inConflict || context.changed || (isNew && context.singleItem);
  const editable = snapshot.matches({ form: 'editing' });

  const save = () => {
    if (!inConflict) {
      const held = schema.find((field) => problems[field.slug]);
      if (held) {
        void notify({ kind: 'error', title: format('item.fieldProblem', { field: held.name, problem: problems[held.slug] ?? '' }) });
        return;
      }
    }
    send({ type: 'SAVE' });
  };

  // Close in the single-item view leaves the collection for the project's page (there is no list to go back to).
  const leave = () => {
    const event = singleView ? ({ type: 'LEAVE', to: { kind: 'elsewhere', to: path('viewProject') } } as const) : ({ type: 'LEAVE' } as const);
    // While the item is still loading there is nothing to lose: the machine takes LEAVE only from the form.
    if (actorRef.getSnapshot().can(event)) send(event);
    else go(singleView ? { kind: 'elsewhere', to: path('viewProject') } : { kind: nested || !collection.singleItem ? 'list' : 'singleItem' });
  };

  const downloadCsv = async () => {
    try {
      const blob = await api.itemsCsv(scope, collectionID, {});
      saveCsv(blob, collectionID);
    } catch (error) {
      void notify({ kind: 'error', title: format('item.downloadFailed'), description: problemMessage(error) });
    }
  };

  const name = itemName(schema, context.item);
  const title = isNew ? format('item.newTitle', { collection: collection.name }) : (name ?? (loading ? collection.name : format('item.untitled', { id: context.itemID ?? '' })));
  const titleId = `${id}-title`;
  const isNested = nested !== undefined;

  const environment: EditorEnvironment = useMemo(
    () => ({
      scope,
      ...(context.item && context.itemID ? { item: context.item as Item } : {}),
      ...(context.itemID
        ? {
            onOpenNested: (field: SchemaField) => {
              const itemIDNow = context.itemID ?? '';
              navigate(
                nested
                  ? path('viewNestedCollection', { collectionID, itemID: nested.parentItemID, nestedID: `${nested.listNestedID}.${itemIDNow}.${field.slug}` })
                  : path('viewNestedCollection', { collectionID, itemID: itemIDNow, nestedID: field.slug }),
              );
            },
          }
        : {}),
    }),
    [scope, context.item, context.itemID, nested, navigate, path, collectionID],
  );

  return (
    <section className="item-page" aria-labelledby={titleId} aria-busy={busy || undefined}>
      <header className="item-page-bar">
        <button type="button" className="icon-button" aria-label={format('item.close')} onClick={leave} disabled={busy && !loading}>
          <X aria-hidden="true" size={20} />
        </button>
        <h2 id={titleId} className="item-page-title">
          {title}
        </h2>
        <div className="item-page-actions">
          <button type="button" className="button button-primary" disabled={!canSave || busy || !allowed} onClick={save}>
            {snapshot.matches('saving') ? format('item.saving') : format(isNew ? 'item.create' : 'item.update')}
          </button>
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger className="icon-button" aria-label={format('item.menu')} disabled={loading}>
              <MoreHorizontal aria-hidden="true" size={20} />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
                {singleView ? (
                  <>
                    <DropdownMenu.Item className="menu-item" onSelect={() => void downloadCsv()}>
                      {format('item.downloadCsv')}
                    </DropdownMenu.Item>
                    <DropdownMenu.Item className="menu-item" onSelect={() => navigate(path('editCollection', { collectionID }))}>
                      {format('item.collectionSettings')}
                    </DropdownMenu.Item>
                  </>
                ) : (
                  <>
                    <DropdownMenu.CheckboxItem
                      className="menu-item menu-item-check"
                      checked={context.closeAfterSaving}
                      onSelect={(event) => event.preventDefault()}
                      onCheckedChange={(value) => send({ type: 'SET_CLOSE_AFTER_SAVING', value: value === true })}
                    >
                      <span className="menu-check-box" aria-hidden="true">
                        <DropdownMenu.ItemIndicator>
                          <Check size={14} />
                        </DropdownMenu.ItemIndicator>
                      </span>
                      {format('item.closeAfterSaving')}
                    </DropdownMenu.CheckboxItem>
                    {!isNew && !isNested && actions.create ? (
                      <DropdownMenu.Item className="menu-item" disabled={!editable} onSelect={() => send({ type: 'DUPLICATE' })}>
                        {format('item.duplicate')}
                      </DropdownMenu.Item>
                    ) : null}
                    {!isNew && actions.delete ? (
                      <DropdownMenu.Item className="menu-item menu-item-danger" disabled={!editable} onSelect={() => send({ type: 'DELETE' })}>
                        {format('item.delete')}
                      </DropdownMenu.Item>
                    ) : null}
                  </>
                )}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </div>
      </header>

      {loading ? (
        <p className="muted" role="status">
          {format('item.loading')}
        </p>
      ) : (
        <>
          {inConflict && context.conflict ? (
            <ConflictPanel
              conflict={context.conflict}
              schema={schema}
              busy={busy}
              onChoose={(slug, side) => send({ type: 'CHOOSE', slug, side })}
              onChooseAll={(side) => send({ type: 'CHOOSE_ALL', side })}
              onSave={save}
            />
          ) : null}
          <EditorEnvironmentProvider value={environment}>
            <div className="item-fields" role="group" aria-label={format('item.fields')}>
              {schema.map((field) => {
                const fieldError = context.fieldErrors[field.slug];
                return (
                  <FieldEditor
                    key={field.id || field.slug}
                    id={`${id}-field-${field.slug}`}
                    field={field}
                    value={context.values[field.slug]}
                    onChange={(value) => send({ type: 'CHANGE', slug: field.slug, value })}
                    error={fieldError ? format(fieldError.key as MessageKey, fieldError.values) : undefined}
                    disabled={!editable}
                    onProblem={problemReporters[field.slug]}
                  />
                );
              })}
            </div>
          </EditorEnvironmentProvider>
        </>
      )}

      <DialogRenderer
        definition={deleteItemDialog}
        open={snapshot.matches('confirmingDelete')}
        onOpenChange={(open) => {
          if (!open) send({ type: 'CANCEL_DELETE' });
        }}
        onAction={(action) => send({ type: action === 'delete' ? 'CONFIRM_DELETE' : 'CANCEL_DELETE' })}
      />
      <DialogRenderer
        definition={leaveItemDialog}
        open={snapshot.matches('confirmingLeave')}
        onOpenChange={(open) => {
          if (open) return;
          if (actorRef.getSnapshot().matches('confirmingLeave')) {
            send({ type: 'CANCEL_LEAVE' });
            if (blockerRef.current?.state === 'blocked') blockerRef.current.reset();
          }
        }}
        onAction={(action) => {
          if (action === 'leave') {
            send({ type: 'CONFIRM_LEAVE' });
            return;
          }
          send({ type: 'CANCEL_LEAVE' });
          if (blockerRef.current?.state === 'blocked') blockerRef.current.reset();
        }}
      />
    </section>
  );
}
