/**
 * The item form: load the item (or start a new one),
 * edit, save (create or update), delete, duplicate, and leave.
 * - Update/Create is enabled by a has-changes flag; a single-item collection with no item has
 *   Create enabled without changes. Saving first checks required fields (all but Bool).
 * - After saving: with "close after saving" on, to the list (or the single-item view); off, to
 *   the item's own page (viewItem).
 * - Every update names the version it edited. A 409 with the current item opens a conflict that
 *   lists the fields where the person's version and the server's differ; the person chooses field
 *   by field and saves again against the server's version: no update is ever lost silently.
 * - Duplicate copies the saved item (see item-form-rules) into a new-item form marked as changed.
 * - Leaving with unsaved changes asks first.
 * - Files: a new item's chosen files wait in the form; after the create they are
 *   uploaded ("Uploading images", then "Images Uploaded" or "An unknown error occurred uploading
 *   images"), and only then does the form close or show the item. On a saved item the editors
 *   upload and remove at once; each answer (`FILE_STORED`) rebases the form on the item it returns.
 *
 * No I/O here: the page provides the actors `loadItem`, `saveItem`, `deleteItem`, `uploadFiles` and the actions
 * `navigate`, `notify` (toasts) and `persistCloseAfterSaving` with `machine.provide(...)`.
 */
import { and, assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { SchemaField } from '../definitions/field-types/types.ts';
import {
  chooseSide,
  conflictFields,
  duplicateValues,
  fieldErrorsOf,
  isMissingItem,
  isStaleWrite,
  pendingFiles,
  rebaseOnStoredFile,
  itemFormErrorOf,
  mergeConflict,
  missingRequiredFields,
  requiredFieldMessage,
  valuesDiffer,
  valuesOf,
  valuesToSend,
  versionOf,
  type ConflictSide,
  type ItemConflict,
  type ItemFormError,
  type ItemMessage,
  type ItemRecord,
  type ItemValues,
  type PendingFile,
} from './item-form-rules.ts';

/** Message keys the form produces; texts live in definitions/messages/en.json. */
export const itemFormMessageKeys = {
  created: 'item.created',
  updated: 'item.updated',
  /** No answer from the server (network, timeout), on create or update. */
  saveFailed: 'item.saveFailed',
  createError: 'item.createError',
  updateFailedReason: 'item.updateFailedReason',
  updateError: 'item.updateError',
  deleteFailedReason: 'item.deleteFailedReason',
  deleteError: 'item.deleteError',
  missingId: 'item.missingId',
  notFound: 'item.notFound',
  loadFailed: 'item.loadFailed',
  requiredField: 'item.requiredField',
  fieldRefused: 'item.fieldRefused',
  conflict: 'item.conflict',
  leaveConfirm: 'item.leaveConfirm',
  deleteConfirm: 'item.deleteConfirm',
  imagesUploading: 'images.uploading',
  imagesUploaded: 'images.uploaded',
  imagesUploadFailed: 'images.uploadFailed',
} as const;

/** Where the form sends the person; the page maps it to a route (nested ones included). */
export type ItemFormDestination =
  | { kind: 'list' }
  | { kind: 'singleItem' }
  | { kind: 'item'; itemID: string }
  /** A new-item form holding `values` (Duplicate): the page shows addItemToCollection. */
  | { kind: 'newItem'; values: ItemValues }
  /** A navigation the page held back (a link, the browser's back): `to` is the page's own. */
  | { kind: 'elsewhere'; to: unknown };

/** A toast. */
export interface ItemNotice extends ItemMessage {
  tone: 'success' | 'error' | 'info';
}

export interface ItemFormInput {
  collectionID: string;
  /** The schema of the item's level (a nested collection's schema for a nested item). */
  schema: readonly SchemaField[];
  /** The item to load; absent or null for a new item. */
  itemID?: string | null;
  /** A nested item: the chain to it (an existing one) or to its list (a new one). */
  nestedID?: string;
  /** A nested item: the top-level item it hangs under. */
  parentItemID?: string;
  singleItem?: boolean;
  /** The "Close after saving" choice the page keeps locally; on unless it says otherwise. */
  closeAfterSaving?: boolean;
  /** A new item's first values: a prefill from the calendar, map or kanban, or a duplicate's copy. */
  values?: ItemValues;
  /** A new form that counts as changed from the start (a duplicate). */
  markedChanged?: boolean;
}

export interface ItemFormContext {
  collectionID: string;
  schema: readonly SchemaField[];
  nestedID: string | undefined;
  parentItemID: string | undefined;
  singleItem: boolean;
  closeAfterSaving: boolean;
  /** null while the item is new. */
  itemID: string | null;
  /** The item as the server last gave it. */
  item: ItemRecord | null;
  /** The version (ETag) the form's edits are based on; sent with every update and delete. */
  version: string | null;
  /** The values the form started from (the saved item's, or none for a new one). */
  baseline: ItemValues;
  /** The values as edited now. */
  values: ItemValues;
  /** Counts as changed whatever the values (a duplicate). */
  markedChanged: boolean;
  /** The has-changes flag: enables Update/Create. */
  changed: boolean;
  /** Messages shown beside fields: missing required ones, or the server's per-field refusals. */
  fieldErrors: Record<string, ItemMessage>;
  /** The last refusal of a call. */
  error: ItemFormError | null;
  /** An update refused as stale: the fields to choose between. */
  conflict: ItemConflict | null;
  /** Reloads done because the item read back had fewer than 2 keys. */
  reloads: number;
  /** Where a leave waiting for confirmation goes. */
  leaveTo: ItemFormDestination | null;
  /** A just-created item's files being uploaded. */
  uploads: PendingFile[];
}

export type ItemFormEvent =
  | { type: 'CHANGE'; slug: string; value: unknown }
  | { type: 'SAVE' }
  | { type: 'SET_CLOSE_AFTER_SAVING'; value: boolean }
  | { type: 'DUPLICATE' }
  | { type: 'DELETE' }
  | { type: 'CONFIRM_DELETE' }
  | { type: 'CANCEL_DELETE' }
  /** Close (X) or any navigation away; `to` defaults to the list (or the single-item view). */
  | { type: 'LEAVE'; to?: ItemFormDestination }
  | { type: 'CONFIRM_LEAVE' }
  | { type: 'CANCEL_LEAVE' }
  /** In a conflict: keep this side's value of one field. */
  | { type: 'CHOOSE'; slug: string; side: ConflictSide }
  | { type: 'CHOOSE_ALL'; side: ConflictSide }
  /**
   * An editor's file call on the saved item answered with the item: `value` is what the field
   * shows now (the answer's value when omitted).
   */
  | { type: 'FILE_STORED'; slug: string; result: VersionedItemResult; value?: unknown };

/** An item read or written, with its version (the ETag to send back). */
export interface VersionedItemResult {
  item: ItemRecord;
  etag: string | null;
}

/**
 * Where an item is. A nested item's `itemID` is its own id; the API reaches it through the top
 * item `parentItemID` with `nestedID` (which, for an existing nested item, ends in that id).
 */
export interface LoadItemInput {
  collectionID: string;
  itemID: string;
  nestedID?: string;
  parentItemID?: string;
}

export interface SaveItemInput {
  mode: 'create' | 'update';
  collectionID: string;
  /** The item updated; null for a create. */
  itemID: string | null;
  nestedID?: string;
  parentItemID?: string;
  values: ItemValues;
  /** The version the values were edited from (If-Match); null for a create. */
  version: string | null;
}

/**
 * The files of a just-created item. `itemID` is the new item's id; a nested item is reached
 * through the top-level `parentItemID` and `nestedID`, the chain of its list (ending in a slug).
 */
export interface UploadFilesInput {
  collectionID: string;
  itemID: string;
  nestedID?: string;
  parentItemID?: string;
  files: PendingFile[];
}

/** The item after the last upload that landed (null when none did) and how many failed. */
export interface UploadFilesOutput {
  result: VersionedItemResult | null;
  failed: number;
}

export interface DeleteItemInput {
  collectionID: string;
  itemID: string;
  nestedID?: string;
  parentItemID?: string;
  version: string | null;
}

const place = (context: ItemFormContext) => ({
  ...(context.nestedID !== undefined ? { nestedID: context.nestedID } : {}),
  ...(context.parentItemID !== undefined ? { parentItemID: context.parentItemID } : {}),
});

/** The list, or the single-item view for a single-item collection. */
const homeOf = (context: ItemFormContext): ItemFormDestination => (context.singleItem ? { kind: 'singleItem' } : { kind: 'list' });

const hasChanges = (context: ItemFormContext, values: ItemValues) => context.markedChanged || valuesDiffer(values, context.baseline);

/** The toast of a refused create or update. */
export function saveErrorMessage(mode: 'create' | 'update', error: ItemFormError): ItemMessage {
  if (error.status === 0) return { key: itemFormMessageKeys.saveFailed };
  if (mode === 'create') return { key: itemFormMessageKeys.createError };
  return error.detail ? { key: itemFormMessageKeys.updateFailedReason, values: { reason: error.detail } } : { key: itemFormMessageKeys.updateError };
}

/** The toast of a refused delete. */
export function deleteErrorMessage(error: ItemFormError): ItemMessage {
  return error.status !== 0 && error.detail ? { key: itemFormMessageKeys.deleteFailedReason, values: { reason: error.detail } } : { key: itemFormMessageKeys.deleteError };
}

/** The context of a form showing this saved item. */
const showingItem = (result: VersionedItemResult, knownID: string | null) => {
  const values = valuesOf(result.item);
  return {
    item: result.item,
    itemID: typeof result.item._id === 'string' && result.item._id !== '' ? result.item._id : knownID,
    version: versionOf(result.etag, result.item),
    baseline: values,
    values,
    markedChanged: false,
    changed: false,
    fieldErrors: {},
    error: null,
    conflict: null,
  };
};

export const itemFormMachine = setup({
  types: {
    context: {} as ItemFormContext,
    events: {} as ItemFormEvent,
    input: {} as ItemFormInput,
  },
  actors: {
    // Each is provided by the page; these defaults fail loudly when one is forgotten.
    loadItem: fromPromise<VersionedItemResult, LoadItemInput>(async () => {
      throw new Error('loadItem is not provided');
    }),
    saveItem: fromPromise<VersionedItemResult, SaveItemInput>(async () => {
      throw new Error('saveItem is not provided');
    }),
    deleteItem: fromPromise<unknown, DeleteItemInput>(async () => {
      throw new Error('deleteItem is not provided');
    }),
    uploadFiles: fromPromise<UploadFilesOutput, UploadFilesInput>(async () => {
      throw new Error('uploadFiles is not provided');
    }),
  },
  guards: {
    hasItemID: ({ context }) => context.itemID !== null,
    // A saved item: loaded, or created (even when the answer lacked its id, which delete then reports).
    isSaved: ({ context }) => context.itemID !== null || context.item !== null,
    isNew: ({ context }) => context.itemID === null,
    hasChanges: ({ context }) => context.changed,
    // A single-item collection with no item can be created without changes.
    canSave: ({ context }) => context.changed || (context.itemID === null && context.singleItem),
    hasMissingRequired: ({ context }) => missingRequiredFields(context.schema, context.values).length > 0,
    // Duplicate is not offered for new or nested items, nor in a single-item collection.
    canDuplicate: ({ context }) => context.itemID !== null && context.nestedID === undefined && !context.singleItem,
    closesAfterSaving: ({ context }) => context.closeAfterSaving,
    isMissing: (_, params: { item: unknown }) => isMissingItem(params.item),
    // An item read back with fewer than 2 keys is missing, and the page reloads (once).
    isMissingAndMayReload: ({ context }, params: { item: unknown }) => isMissingItem(params.item) && context.reloads < 1,
    isNotFound: (_, params: { error: unknown }) => itemFormErrorOf(params.error).status === 404,
    // A stale update (409 with the current item); a create has no version to be stale against.
    isStaleUpdate: ({ context }, params: { error: unknown }) => context.itemID !== null && isStaleWrite(itemFormErrorOf(params.error)),
    isLeavingToDuplicate: ({ context }) => context.leaveTo?.kind === 'newItem',
    // A create answered with the new item's id while the form holds files to upload into it.
    hasFilesToUpload: ({ context }, params: { result: VersionedItemResult }) =>
      context.itemID === null && typeof params.result.item._id === 'string' && params.result.item._id !== '' && pendingFiles(context.schema, context.values).length > 0,
    allUploaded: (_, params: { output: UploadFilesOutput }) => params.output.failed === 0,
    allUploadedAndCloses: ({ context }, params: { output: UploadFilesOutput }) => params.output.failed === 0 && context.closeAfterSaving,
  },
  actions: {
    // Provided by the page.
    navigate: (_, _params: { destination: ItemFormDestination }) => {},
    notify: (_, _params: ItemNotice) => {},
    persistCloseAfterSaving: (_, _params: { value: boolean }) => {},

    showLoaded: assign(({ context }, params: { result: VersionedItemResult }) => showingItem(params.result, context.itemID)),
    countReload: assign({ reloads: ({ context }) => context.reloads + 1 }),
    setValue: assign(({ context }, params: { slug: string; value: unknown }) => {
      const values = { ...context.values, [params.slug]: params.value };
      const { [params.slug]: _cleared, ...fieldErrors } = context.fieldErrors;
      return { values, changed: hasChanges(context, values), fieldErrors };
    }),
    setCloseAfterSaving: assign({ closeAfterSaving: (_, params: { value: boolean }) => params.value }),
    showMissingRequired: assign({
      fieldErrors: ({ context }) => Object.fromEntries(missingRequiredFields(context.schema, context.values).map((field) => [field.slug, requiredFieldMessage(field)])),
    }),
    clearErrors: assign({ fieldErrors: {}, error: null }),
    showSaved: assign(({ context }, params: { result: VersionedItemResult }) => showingItem(params.result, context.itemID)),
    showSaveError: assign(({ context }, params: { error: unknown }) => {
      const error = itemFormErrorOf(params.error);
      return { error, fieldErrors: fieldErrorsOf(context.schema, error) };
    }),
    openConflict: assign(({ context }, params: { error: unknown }) => {
      const error = itemFormErrorOf(params.error);
      const current = error.current ?? {};
      return {
        error,
        conflict: { fields: conflictFields(context.schema, context.baseline, context.values, valuesOf(current)), current, etag: versionOf(error.etag, current) },
      };
    }),
    choose: assign({
      conflict: ({ context }, params: { slug: string; side: ConflictSide }) =>
        context.conflict ? { ...context.conflict, fields: chooseSide(context.conflict.fields, params.slug, params.side) } : null,
    }),
    chooseAll: assign({
      conflict: ({ context }, params: { side: ConflictSide }) =>
        context.conflict ? { ...context.conflict, fields: context.conflict.fields.map((field) => ({ ...field, choice: params.side })) } : null,
    }),
    // The settled values are now edits of the server's current version, which the next save names.
    settleConflict: assign(({ context }) => {
      if (!context.conflict) return {};
      const values = mergeConflict(context.conflict, context.values);
      const baseline = valuesOf(context.conflict.current);
      return { values, baseline, item: context.conflict.current, version: context.conflict.etag, conflict: null, error: null, changed: true, markedChanged: true };
    }),
    setLeaveTo: assign({ leaveTo: (_, params: { destination: ItemFormDestination }) => params.destination }),
    clearLeaveTo: assign({ leaveTo: null }),
    startDuplicate: assign(({ context }) => {
      const values = duplicateValues(context.schema, context.item ?? context.values);
      return {
        itemID: null,
        item: null,
        version: null,
        baseline: {},
        values,
        markedChanged: true,
        changed: true,
        fieldErrors: {},
        error: null,
        conflict: null,
        leaveTo: null,
      };
    }),
    showError: assign({ error: (_, params: { error: unknown }) => itemFormErrorOf(params.error) }),
    markCreated: assign(({ context }, params: { result: VersionedItemResult }) => ({
      item: params.result.item,
      itemID: typeof params.result.item._id === 'string' && params.result.item._id !== '' ? params.result.item._id : context.itemID,
      version: versionOf(params.result.etag, params.result.item),
    })),
    keepFilesToUpload: assign({ uploads: ({ context }) => pendingFiles(context.schema, context.values) }),
    clearUploads: assign({ uploads: [] }),
    // The item after its last upload; when none landed, the item as created.
    showUploaded: assign(({ context }, params: { output: UploadFilesOutput | null }) =>
      showingItem(params.output?.result ?? { item: context.item ?? {}, etag: context.version }, context.itemID),
    ),
    takeStoredFile: assign(({ context }, params: { slug: string; result: VersionedItemResult; value: unknown }) => {
      const rebased = rebaseOnStoredFile(context, params.slug, { item: params.result.item, version: versionOf(params.result.etag, params.result.item) }, params.value);
      return { ...rebased, item: params.result.item, changed: context.markedChanged || valuesDiffer(rebased.values, rebased.baseline) };
    }),
  },
}).createMachine({
  id: 'itemForm',
  context: ({ input }) => {
    const values = input.itemID ? {} : { ...(input.values ?? {}) };
    const markedChanged = !input.itemID && (input.markedChanged ?? false);
    return {
      collectionID: input.collectionID,
      schema: input.schema,
      nestedID: input.nestedID,
      parentItemID: input.parentItemID,
      singleItem: input.singleItem ?? false,
      closeAfterSaving: input.closeAfterSaving ?? true,
      itemID: input.itemID ?? null,
      item: null,
      version: null,
      baseline: {},
      values,
      markedChanged,
      changed: markedChanged || valuesDiffer(values, {}),
      fieldErrors: {},
      error: null,
      conflict: null,
      reloads: 0,
      leaveTo: null,
      uploads: [],
    };
  },
  initial: 'starting',
  on: {
    // Taken wherever it arrives (a dialog may be open meanwhile); ignored before the item exists and in the final states.
    FILE_STORED: {
      guard: 'isSaved',
      actions: { type: 'takeStoredFile', params: ({ event }) => ({ slug: event.slug, result: event.result, value: event.value }) },
    },
  },
  states: {
    starting: {
      always: [{ guard: 'hasItemID', target: 'loading' }, { target: 'form' }],
    },
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadItem',
        input: ({ context }) => ({ collectionID: context.collectionID, itemID: context.itemID ?? '', ...place(context) }),
        onDone: [
          {
            guard: { type: 'isMissingAndMayReload', params: ({ event }) => ({ item: event.output.item }) },
            target: 'loading',
            reenter: true,
            actions: 'countReload',
          },
          { guard: { type: 'isMissing', params: ({ event }) => ({ item: event.output.item }) }, target: 'notFound' },
          { target: 'form', actions: { type: 'showLoaded', params: ({ event }) => ({ result: event.output }) } },
        ],
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'loadFailed', actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    notFound: {
      type: 'final',
      entry: [
        { type: 'notify', params: { tone: 'error', key: itemFormMessageKeys.notFound } },
        { type: 'navigate', params: ({ context }) => ({ destination: homeOf(context) }) },
      ],
    },
    loadFailed: {
      type: 'final',
      entry: [
        { type: 'notify', params: { tone: 'error', key: itemFormMessageKeys.loadFailed } },
        { type: 'navigate', params: ({ context }) => ({ destination: homeOf(context) }) },
      ],
    },
    form: {
      initial: 'editing',
      on: {
        SET_CLOSE_AFTER_SAVING: {
          actions: [
            { type: 'setCloseAfterSaving', params: ({ event }) => ({ value: event.value }) },
            { type: 'persistCloseAfterSaving', params: ({ event }) => ({ value: event.value }) },
          ],
        },
        LEAVE: [
          {
            guard: 'hasChanges',
            target: 'confirmingLeave',
            actions: { type: 'setLeaveTo', params: ({ context, event }) => ({ destination: event.to ?? homeOf(context) }) },
          },
          { target: 'left', actions: { type: 'navigate', params: ({ context, event }) => ({ destination: event.to ?? homeOf(context) }) } },
        ],
      },
      states: {
        editing: {
          on: {
            CHANGE: { actions: { type: 'setValue', params: ({ event }) => ({ slug: event.slug, value: event.value }) } },
            SAVE: [
              {
                guard: and(['canSave', 'hasMissingRequired']),
                actions: [
                  'showMissingRequired',
                  {
                    type: 'notify',
                    params: ({ context }) => ({ tone: 'error' as const, ...requiredFieldMessage(missingRequiredFields(context.schema, context.values)[0]!) }),
                  },
                ],
              },
              { guard: 'canSave', target: '#itemForm.saving', actions: 'clearErrors' },
            ],
            DUPLICATE: [
              // Duplicating leaves this item's form: unsaved changes are asked about first.
              {
                guard: and(['canDuplicate', 'hasChanges']),
                target: '#itemForm.confirmingLeave',
                actions: { type: 'setLeaveTo', params: ({ context }) => ({ destination: { kind: 'newItem', values: duplicateValues(context.schema, context.item ?? {}) } }) },
              },
              {
                guard: 'canDuplicate',
                target: 'editing',
                reenter: true,
                actions: ['startDuplicate', { type: 'navigate', params: ({ context }) => ({ destination: { kind: 'newItem', values: context.values } }) }],
              },
            ],
            DELETE: { guard: 'isSaved', target: '#itemForm.confirmingDelete' },
          },
        },
        conflict: {
          on: {
            CHOOSE: { actions: { type: 'choose', params: ({ event }) => ({ slug: event.slug, side: event.side }) } },
            CHOOSE_ALL: { actions: { type: 'chooseAll', params: ({ event }) => ({ side: event.side }) } },
            SAVE: { target: '#itemForm.saving', actions: ['settleConflict', 'clearErrors'] },
          },
        },
        resume: { type: 'history' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'saveItem',
        input: ({ context }) => ({
          mode: context.itemID === null ? ('create' as const) : ('update' as const),
          collectionID: context.collectionID,
          itemID: context.itemID,
          ...place(context),
          values: valuesToSend(context.schema, context.values),
          version: context.itemID === null ? null : context.version,
        }),
        onDone: [
          {
            guard: { type: 'hasFilesToUpload', params: ({ event }) => ({ result: event.output }) },
            target: 'uploadingFiles',
            actions: [
              { type: 'notify', params: { tone: 'success', key: itemFormMessageKeys.created } },
              'keepFilesToUpload',
              // The chosen files stay in the form while they upload (the editors show their progress).
              { type: 'markCreated', params: ({ event }) => ({ result: event.output }) },
            ],
          },
          {
            guard: 'closesAfterSaving',
            target: 'closed',
            actions: [
              { type: 'notify', params: ({ context }) => ({ tone: 'success' as const, key: context.itemID === null ? itemFormMessageKeys.created : itemFormMessageKeys.updated }) },
              { type: 'showSaved', params: ({ event }) => ({ result: event.output }) },
              { type: 'navigate', params: ({ context }) => ({ destination: homeOf(context) }) },
            ],
          },
          {
            guard: 'isNew',
            target: 'form.editing',
            actions: [
              { type: 'notify', params: { tone: 'success', key: itemFormMessageKeys.created } },
              { type: 'showSaved', params: ({ event }) => ({ result: event.output }) },
              // Off: the new item's own page (viewItem), when the answer named it.
              enqueueActions(({ context, enqueue }) => {
                if (context.itemID !== null) enqueue({ type: 'navigate', params: { destination: { kind: 'item', itemID: context.itemID } } });
              }),
            ],
          },
          {
            target: 'form.editing',
            actions: [
              { type: 'notify', params: { tone: 'success', key: itemFormMessageKeys.updated } },
              { type: 'showSaved', params: ({ event }) => ({ result: event.output }) },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'isStaleUpdate', params: ({ event }) => ({ error: event.error }) },
            target: 'form.conflict',
            actions: [{ type: 'openConflict', params: ({ event }) => ({ error: event.error }) }, { type: 'notify', params: { tone: 'error', key: itemFormMessageKeys.conflict } }],
          },
          {
            target: 'form.editing',
            actions: [
              { type: 'notify', params: ({ context, event }) => ({ tone: 'error' as const, ...saveErrorMessage(context.itemID === null ? 'create' : 'update', itemFormErrorOf(event.error)) }) },
              { type: 'showSaveError', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
    },
    /** A new item was created: its files go now, before the form closes or shows the item. */
    uploadingFiles: {
      tags: ['busy'],
      entry: { type: 'notify', params: { tone: 'info', key: itemFormMessageKeys.imagesUploading } },
      exit: 'clearUploads',
      invoke: {
        src: 'uploadFiles',
        input: ({ context }) => ({
          collectionID: context.collectionID,
          itemID: context.itemID ?? '',
          ...place(context),
          files: context.uploads,
        }),
        onDone: [
          {
            guard: { type: 'allUploadedAndCloses', params: ({ event }) => ({ output: event.output }) },
            target: 'closed',
            actions: [
              { type: 'notify', params: { tone: 'success', key: itemFormMessageKeys.imagesUploaded } },
              { type: 'showUploaded', params: ({ event }) => ({ output: event.output }) },
              { type: 'navigate', params: ({ context }) => ({ destination: homeOf(context) }) },
            ],
          },
          {
            guard: { type: 'allUploaded', params: ({ event }) => ({ output: event.output }) },
            target: 'form.editing',
            actions: [
              { type: 'notify', params: { tone: 'success', key: itemFormMessageKeys.imagesUploaded } },
              { type: 'showUploaded', params: ({ event }) => ({ output: event.output }) },
              { type: 'navigate', params: ({ context }) => ({ destination: { kind: 'item', itemID: context.itemID ?? '' } }) },
            ],
          },
          // Some files did not land: the new item's own page, whatever "close after saving" says, so the person sees what is missing.
          {
            target: 'form.editing',
            actions: [
              { type: 'notify', params: { tone: 'error', key: itemFormMessageKeys.imagesUploadFailed } },
              { type: 'showUploaded', params: ({ event }) => ({ output: event.output }) },
              { type: 'navigate', params: ({ context }) => ({ destination: { kind: 'item', itemID: context.itemID ?? '' } }) },
            ],
          },
        ],
        onError: {
          target: 'form.editing',
          actions: [
            { type: 'notify', params: { tone: 'error', key: itemFormMessageKeys.imagesUploadFailed } },
            { type: 'showUploaded', params: { output: null } },
            { type: 'navigate', params: ({ context }) => ({ destination: { kind: 'item', itemID: context.itemID ?? '' } }) },
          ],
        },
      },
    },
    confirmingDelete: {
      on: {
        CONFIRM_DELETE: [
          { guard: 'hasItemID', target: 'deleting' },
          // A delete with no item id.
          { target: 'form.editing', actions: { type: 'notify', params: { tone: 'error', key: itemFormMessageKeys.missingId } } },
        ],
        CANCEL_DELETE: { target: 'form.editing' },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        src: 'deleteItem',
        input: ({ context }) => ({ collectionID: context.collectionID, itemID: context.itemID ?? '', ...place(context), version: context.version }),
        onDone: { target: 'deleted', actions: { type: 'navigate', params: ({ context }) => ({ destination: homeOf(context) }) } },
        onError: {
          target: 'form.editing',
          actions: [
            { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, ...deleteErrorMessage(itemFormErrorOf(event.error)) }) },
            { type: 'showError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    confirmingLeave: {
      on: {
        CONFIRM_LEAVE: [
          {
            guard: 'isLeavingToDuplicate',
            target: 'form.editing',
            actions: ['startDuplicate', { type: 'navigate', params: ({ context }) => ({ destination: { kind: 'newItem', values: context.values } }) }],
          },
          { target: 'left', actions: [{ type: 'navigate', params: ({ context }) => ({ destination: context.leaveTo ?? homeOf(context) }) }, 'clearLeaveTo'] },
        ],
        CANCEL_LEAVE: { target: 'form.resume', actions: 'clearLeaveTo' },
      },
    },
    /** Saved with "close after saving" on. */
    closed: { type: 'final' },
    deleted: { type: 'final' },
    left: { type: 'final' },
  },
});
