/**
 * The item page drawn from the item-form machine: the
 * navigation bar (title, Close, Update or Create Item, the menu), one FieldEditor per schema
 * field, the conflict chooser after a 409, and the delete and leave confirmations. The page only
 * provides the machine's I/O: the item calls, the toasts, the navigations and the stored
 * "Close after saving" choice. Navigations the person starts elsewhere (links, the browser's
 * back) are held by react-router's blocker while there are unsaved changes and asked about; the
 * forms shown together (an item and its folded nested items) share one blocker (leave-guard.tsx).
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { NavigationType, useLocation, useNavigate, type Blocker, type Location } from 'react-router';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { Check, MoreHorizontal, X } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { deleteItemDialog, leaveItemDialog } from '../../../definitions/dialogs/item.ts';
import { fieldType, titleField, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { itemFormMachine, type ItemFormDestination, type ItemNotice } from '../../../machines/item-form.ts';
import type { ItemValues } from '../../../machines/item-form-rules.ts';
import { DialogRenderer } from '../../../renderers/dialogs/DialogRenderer.tsx';
import { ConflictPanel } from '../../../renderers/fields/ConflictPanel.tsx';
import type { EditorEnvironment } from '../../../renderers/fields/editor-environment.ts';
import { ItemFields, useFieldProblems } from '../../../renderers/fields/ItemFields.tsx';
import { ImageFilesProvider } from '../../../renderers/fields/image-ref/image-files.ts';
import type { NestedPlaceOfItem } from '../../../renderers/fields/nested-collection/nested-place.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Collection, Item, ProjectScope } from '../../api/content.ts';
import { useContentApi, useItemCalls } from '../../api/content-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectActions, useProjectPath } from '../project/project-context.ts';
import { loadCloseAfterSaving, saveCloseAfterSaving } from './close-after-saving.ts';
import { LeaveGuardHost, useLeaveGuard } from './leave-guard.tsx';
import { useFormFiles } from '../../../renderers/fields/image-ref/use-form-files.ts';
import './item.css';
import { fullWidthRules } from './field-width.ts';
import { saveCsv } from '../items/save-csv.ts';
import { ItemUsersPanel } from '../auth/ItemUsersPanel.tsx';

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
  /** Drawn as the single-item view of its collection: the menu differs, Close leaves the collection. */
  singleView?: boolean;
  /** A new item's first values (a duplicate's copy) and whether they count as a change. */
  initialValues?: ItemValues | undefined;
  markedChanged?: boolean | undefined;
  /** The single-item view shows its item again (after saving or deleting there). */
  onShowSingleItem?: (() => void) | undefined;
  /**
   * Whether a navigation to `next` keeps this form shown (a nested collection folding out beside
   * it): such navigations are not asked about. Without it only the same address keeps the form.
   */
  stays?: ((next: Location) => boolean) | undefined;
  /** Opens a nested collection of the saved item; without it the page goes to the nested list's address. */
  onOpenNested?: ((field: SchemaField, itemID: string) => void) | undefined;
  /** Told the item's name (its primary field) whenever it changes: the breadcrumbs show it. */
  onName?: ((name: string | null) => void) | undefined;
}

/** How the page names an item: its primary field, else its first text field, when set. */
export function itemName(schema: readonly SchemaField[], item: ItemValues | null): string | null {
  if (!item) return null;
  const field = titleField(schema);
  const value = field ? item[field.slug] : undefined;
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/**
 * The page's forms share one navigation blocker (leave-guard.tsx): a form on its own brings its
 * host, forms folded together use the host around them.
 */
export function ItemFormPage(props: ItemFormPageProps) {
  // A form whose machine finished (saved and closed, deleted, left) while another form's question
  // held the way out, answered Stay, is drawn afresh: it shows the item as saved, editable again.
  const [generation, setGeneration] = useState(0);
  return (
    <LeaveGuardHost>
      <ItemForm key={generation} {...props} onStayedAfterFinishing={() => setGeneration((n) => n + 1)} />
    </LeaveGuardHost>
  );
}

function ItemForm({
  scope,
  collection,
  schema,
  itemID,
  nested,
  singleView = false,
  initialValues,
  markedChanged,
  onShowSingleItem,
  stays,
  onOpenNested,
  onName,
  onStayedAfterFinishing,
}: ItemFormPageProps & { onStayedAfterFinishing: () => void }) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const navigate = useNavigate();
  const path = useProjectPath();
  const actions = useProjectActions();
  const api = useContentApi();
  const calls = useItemCalls(scope, collection.id);
  const id = useId();
  const widthRules = useMemo(() => fullWidthRules(id, schema), [id, schema]);
  const collectionID = collection.id;

  // Set just before the page itself navigates, so the blocker lets its own navigations through.
  const leaving = useRef(false);
  const blockerRef = useRef<Blocker | null>(null);

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
  const io = useRef({ go, toast, calls, uploadFiles: null as ReturnType<typeof useFormFiles>['uploadFiles'] | null });
  io.current = { ...io.current, go, toast, calls };

  const [logic] = useState(() =>
    itemFormMachine.provide({
      actors: {
        loadItem: fromPromise(({ input }) => io.current.calls.load(input)),
        saveItem: fromPromise(({ input }) => io.current.calls.save(input)),
        deleteItem: fromPromise(({ input }) => io.current.calls.remove(input)),
        uploadFiles: fromPromise(({ input }) => {
          if (!io.current.uploadFiles) throw new Error('uploadFiles is not ready');
          return io.current.uploadFiles(input);
        }),
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

  // Files: the editors upload and remove at once on a saved item; a new item's go after its create.
  const { files, uploadFiles, busy: filesBusy } = useFormFiles(
    scope,
    collectionID,
    { itemID: context.itemID, nestedID: context.nestedID, parentItemID: context.parentItemID },
    (slug, result, value) => send({ type: 'FILE_STORED', slug, result, value }),
  );
  io.current.uploadFiles = uploadFiles;

  const shouldBlock = useCallback(
    ({ currentLocation, nextLocation }: { currentLocation: Location; nextLocation: Location }) => {
      if (leaving.current) return false;
      if (currentLocation.pathname === nextLocation.pathname && currentLocation.search === nextLocation.search) return false;
      if (staysRef.current?.(nextLocation)) return false;
      const now = actorRef.getSnapshot();
      return now.context.changed && now.matches('form');
    },
    [actorRef],
  );
  const staysRef = useRef(stays);
  staysRef.current = stays;
  const { held: blocker, othersWouldBlock, refusals } = useLeaveGuard(shouldBlock);
  // The refusals counted when the machine finished; one more afterwards means its way out was refused.
  const refusalsWhenDone = useRef<number | null>(null);
  const finished = snapshot.status === 'done';
  useEffect(() => {
    if (!finished) return;
    if (refusalsWhenDone.current === null) refusalsWhenDone.current = refusals;
    else if (refusals > refusalsWhenDone.current) onStayedAfterFinishing();
  }, [finished, refusals, onStayedAfterFinishing]);
  blockerRef.current = blocker;
  const location = useLocation();
  useEffect(() => {
    if (!blocker || blocker.state !== 'blocked') return;
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

  const { reporters: problemReporters, refuseHeld } = useFieldProblems(schema);

  const busy = snapshot.hasTag('busy');
  const loading = snapshot.matches('loading') || snapshot.matches('starting');
  const inConflict = snapshot.matches({ form: 'conflict' });
  const isNew = context.itemID === null;
  const allowed = isNew ? actions.create : actions.update;
  const canSave = inConflict || context.changed || (isNew && context.singleItem);
  const editable = snapshot.matches({ form: 'editing' });

  const save = () => {
    // An editor holding a problem: nothing is sent (a conflict's choice is saved as chosen).
    if (!inConflict && refuseHeld()) return;
    send({ type: 'SAVE' });
  };

  // Close in the single-item view leaves the collection for the project's page (there is no list to go back to).
  const leave = () => {
    const event = singleView ? ({ type: 'LEAVE', to: { kind: 'elsewhere', to: path('viewProject') } } as const) : ({ type: 'LEAVE' } as const);
    // Another form shown with this one (a folded nested item) has unsaved changes the way out would
    // lose: the navigation is held and that form asks, and this one stays open if the answer is Stay.
    if (!singleView && !actorRef.getSnapshot().context.changed) {
      const to = nested
        ? path('viewNestedCollection', { collectionID, itemID: nested.parentItemID, nestedID: nested.listNestedID })
        : path('viewCollection', { collectionID });
      if (othersWouldBlock({ currentLocation: location, nextLocation: { ...location, pathname: to, search: '', hash: '', state: null, key: '' }, historyAction: NavigationType.Push })) {
        navigate(to);
        return;
      }
    }
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
  const onNameRef = useRef(onName);
  onNameRef.current = onName;
  useEffect(() => {
    onNameRef.current?.(name);
  }, [name]);
  const title = isNew ? format('item.newTitle', { collection: collection.name }) : (name ?? (loading ? collection.name : format('item.untitled', { id: context.itemID ?? '' })));
  const titleId = `${id}-title`;
  const isNested = nested !== undefined;

  const environment: EditorEnvironment = useMemo(
    () => ({
      scope,
      // The collection's RTL switch turns its written-text editors (nested levels included).
      direction: collection.rtlDirection ? 'rtl' : 'ltr',
      ...(context.item && context.itemID ? { item: context.item as Item } : {}),
      ...(context.itemID
        ? {
            onOpenNested: (field: SchemaField) => {
              const itemIDNow = context.itemID ?? '';
              if (onOpenNested) {
                onOpenNested(field, itemIDNow);
                return;
              }
              navigate(
                nested
                  ? path('viewNestedCollection', { collectionID, itemID: nested.parentItemID, nestedID: `${nested.listNestedID}.${itemIDNow}.${field.slug}` })
                  : path('viewNestedCollection', { collectionID, itemID: itemIDNow, nestedID: field.slug }),
              );
            },
          }
        : {}),
    }),
    [scope, collection.rtlDirection, context.item, context.itemID, nested, navigate, path, collectionID, onOpenNested],
  );
  // Where the item's nested collections are read from (their preview tables): the top-level item
  // and the chain down to this item.
  const nestedPlace: NestedPlaceOfItem | null = useMemo(() => {
    if (!context.itemID) return null;
    return nested
      ? { collectionID, parentItemID: nested.parentItemID, itemChain: `${nested.listNestedID}.${context.itemID}` }
      : { collectionID, parentItemID: context.itemID, itemChain: '' };
  }, [collectionID, nested, context.itemID]);

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
          <button type="button" className="button button-primary" disabled={!canSave || busy || !allowed || filesBusy} onClick={save}>
            {snapshot.matches('saving') || snapshot.matches('uploadingFiles') ? format('item.saving') : format(isNew ? 'item.create' : 'item.update')}
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
          {/* Two columns when the form is wide enough (item.css): half-width fields pair up, the rest span both. */}
          <div className="item-form-fields" data-item-form={id}>
            {widthRules ? <style>{widthRules}</style> : null}
            <ImageFilesProvider value={files}>
              <ItemFields
                idPrefix={id}
                className="item-fields"
                schema={schema}
                values={context.values}
                fieldErrors={context.fieldErrors}
                disabled={!editable}
                onChange={(slug, value) => send({ type: 'CHANGE', slug, value })}
                reporters={problemReporters}
                environment={environment}
                nestedPlace={nestedPlace}
              />
            </ImageFilesProvider>
          </div>
          {/* The Users panel: app users of a saved top-level item. */}
          {context.itemID && !isNested ? (
            <ItemUsersPanel place={{ ...scope, collectionID, itemID: context.itemID }} editable={actions.update} />
          ) : null}
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
