/**
 * One field of a schema being defined or changed: a new field is a draft until
 * the tick saves it (or it is discarded); a saved field can be opened, updated, or deleted with a
 * second confirming click. The machine does no I/O: the console provides `saveField`,
 * `updateField` and `deleteField`. The save is guarded by the shared rules of field-draft-rules.
 */
import { and, assign, fromPromise, setup } from 'xstate';
import {
  applyDraftChanges,
  changeDraftType,
  draftOfField,
  fieldDraftProblems,
  fieldInputOf,
  newFieldDraft,
  slugFromName,
  type FieldDraft,
  type FieldDraftChanges,
  type FieldDraftProblem,
} from '../definitions/field-draft-rules.ts';
import { fieldType } from '../definitions/field-types/index.ts';
import { fieldRefusalTextOf } from '../definitions/field-types/setting-refusal.ts';
import type { SchemaField } from '../definitions/field-types/types.ts';

/** Where the field lives and what it is checked against; `field` opens a saved one, `type` starts a draft. */
export interface FieldDraftInput {
  collectionID: string;
  /** The nested schema level, as the API calls take it (nestedID / nestedSlug). */
  nestedID?: string;
  /** Slugs of the other fields of this schema level. */
  siblingSlugs: readonly string[];
  collectionIDs?: readonly string[];
  /** The picker's choice for a new field. */
  type?: number;
  /** A saved field: the machine starts in `saved`. */
  field?: SchemaField;
}

/** A server refusal kept for the screen: the problem's code, detail and per-path errors. */
export interface FieldDraftError {
  status: number | null;
  code: string;
  detail: string;
  errors: { path: string; message: string }[];
}

export interface FieldDraftContext {
  collectionID: string;
  nestedID: string | undefined;
  siblingSlugs: readonly string[];
  collectionIDs: readonly string[] | undefined;
  /** The attributes as edited now. */
  draft: FieldDraft;
  /** The slug was typed by hand: the name no longer derives it. */
  slugEdited: boolean;
  /** The field as the server last answered, null until saved. */
  saved: SchemaField | null;
  /** What keeps the tick disabled (empty when it can be pressed). */
  problems: FieldDraftProblem[];
  error: FieldDraftError | null;
}

export type FieldDraftEvent =
  | { type: 'SET_TYPE'; fieldType: number }
  | { type: 'SET_NAME'; name: string }
  | { type: 'SET_SLUG'; slug: string }
  | { type: 'CHANGE'; changes: FieldDraftChanges }
  | { type: 'ADD_OPTION'; value: string }
  | { type: 'REMOVE_OPTION'; index: number }
  | { type: 'SAVE' }
  | { type: 'DISCARD' }
  | { type: 'OPEN' }
  | { type: 'CLOSE' }
  | { type: 'DELETE' }
  | { type: 'CANCEL_DELETE' }
  | { type: 'CONFIRM_DELETE' }
  | { type: 'CLEAR_ERROR' };

/** Input of `saveField`: POST the new field (nestedID names the nested schema level). */
export interface SaveFieldInput {
  collectionID: string;
  nestedID?: string;
  field: Partial<Omit<SchemaField, 'id'>>;
}

/** Input of `updateField`: PUT the changed attributes (type and slug stay). */
export interface UpdateFieldInput {
  collectionID: string;
  nestedID?: string;
  fieldId: string;
  changes: Partial<Omit<SchemaField, 'id'>>;
}

/** Input of `deleteField`. */
export interface DeleteFieldInput {
  collectionID: string;
  nestedID?: string;
  fieldId: string;
}

/** Reads the problem fields off whatever an actor rejected with (ApiError or a look-alike). */
export function fieldDraftErrorOf(error: unknown): FieldDraftError {
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const problem = typeof record.problem === 'object' && record.problem !== null ? (record.problem as Record<string, unknown>) : {};
  const list = Array.isArray(record.errors) ? record.errors : Array.isArray(problem.errors) ? problem.errors : [];
  return {
    status: typeof record.status === 'number' ? record.status : null,
    code: typeof record.code === 'string' ? record.code : 'unknown',
    detail: typeof record.detail === 'string' ? record.detail : error instanceof Error ? error.message : '',
    errors: list
      .filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null)
      .map((entry) => ({ path: String(entry.path ?? ''), message: fieldRefusalTextOf({ ...entry, message: String(entry.message ?? '') }) })),
  };
}

const rulesOf = (context: FieldDraftContext) => ({
  siblingSlugs: context.siblingSlugs,
  ...(context.collectionID ? { collectionID: context.collectionID } : {}),
  ...(context.collectionIDs ? { collectionIDs: context.collectionIDs } : {}),
});

/** The draft with its problems worked out again. */
const withDraft = (context: FieldDraftContext, draft: FieldDraft) => ({ draft, problems: fieldDraftProblems(draft, rulesOf(context)) });

const sameInput = (a: FieldDraft, b: FieldDraft) => JSON.stringify(fieldInputOf(a, { forUpdate: true })) === JSON.stringify(fieldInputOf(b, { forUpdate: true }));

const withNested = (context: FieldDraftContext) => (context.nestedID !== undefined ? { nestedID: context.nestedID } : {});

export const fieldDraftMachine = setup({
  types: {
    context: {} as FieldDraftContext,
    events: {} as FieldDraftEvent,
    input: {} as FieldDraftInput,
  },
  actors: {
    // Each is provided by the console; these defaults fail loudly when one is forgotten.
    saveField: fromPromise<SchemaField, SaveFieldInput>(async () => {
      throw new Error('saveField is not provided');
    }),
    updateField: fromPromise<SchemaField, UpdateFieldInput>(async () => {
      throw new Error('updateField is not provided');
    }),
    deleteField: fromPromise<unknown, DeleteFieldInput>(async () => {
      throw new Error('deleteField is not provided');
    }),
  },
  guards: {
    hasSavedField: ({ context }) => context.saved !== null,
    isDraftValid: ({ context }) => context.problems.length === 0,
    hasChanges: ({ context }) => context.saved !== null && !sameInput(context.draft, draftOfField(context.saved)),
    isCreatableType: (_, params: { code: number }) => fieldType(params.code)?.capabilities.creatable ?? false,
    // Metadata (not creatable) is shown in the schema but never opened for editing.
    isEditable: ({ context }) => (context.saved ? (fieldType(context.saved.type)?.capabilities.creatable ?? false) : false),
    hasOptionText: (_, params: { value: string }) => params.value.trim() !== '',
  },
  actions: {
    changeType: assign(({ context }, params: { code: number }) => withDraft(context, changeDraftType(context.draft, params.code))),
    setName: assign(({ context }, params: { name: string }) =>
      withDraft(context, { ...context.draft, name: params.name, ...(context.slugEdited || context.saved ? {} : { slug: slugFromName(params.name) }) }),
    ),
    setSlug: assign(({ context }, params: { slug: string }) => ({ ...withDraft(context, { ...context.draft, slug: params.slug }), slugEdited: true })),
    changeAttributes: assign(({ context }, params: { changes: FieldDraftChanges }) => withDraft(context, applyDraftChanges(context.draft, params.changes))),
    addOption: assign(({ context }, params: { value: string }) =>
      withDraft(context, { ...context.draft, options: [...(context.draft.options ?? []), { _id: '', value: params.value.trim() }] }),
    ),
    removeOption: assign(({ context }, params: { index: number }) =>
      withDraft(context, { ...context.draft, options: (context.draft.options ?? []).filter((_, i) => i !== params.index) }),
    ),
    keepSaved: assign(({ context }, params: { field: SchemaField }) => ({ saved: params.field, ...withDraft(context, draftOfField(params.field)), error: null })),
    revertEdits: assign(({ context }) => (context.saved ? withDraft(context, draftOfField(context.saved)) : {})),
    showError: assign({ error: (_, params: { error: unknown }) => fieldDraftErrorOf(params.error) }),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'fieldDraft',
  context: ({ input }) => {
    const draft = input.field ? draftOfField(input.field) : newFieldDraft(input.type ?? 0);
    const rules = { siblingSlugs: input.siblingSlugs, collectionID: input.collectionID, ...(input.collectionIDs ? { collectionIDs: input.collectionIDs } : {}) };
    return {
      collectionID: input.collectionID,
      nestedID: input.nestedID,
      siblingSlugs: input.siblingSlugs,
      collectionIDs: input.collectionIDs,
      draft,
      slugEdited: false,
      saved: input.field ?? null,
      problems: fieldDraftProblems(draft, rules),
      error: null,
    };
  },
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasSavedField', target: 'saved' }, { target: 'draft' }],
    },
    draft: {
      on: {
        SET_TYPE: {
          guard: { type: 'isCreatableType', params: ({ event }) => ({ code: event.fieldType }) },
          actions: { type: 'changeType', params: ({ event }) => ({ code: event.fieldType }) },
        },
        SET_NAME: { actions: { type: 'setName', params: ({ event }) => ({ name: event.name }) } },
        // The slug is editable only while the field is a draft.
        SET_SLUG: { actions: { type: 'setSlug', params: ({ event }) => ({ slug: event.slug }) } },
        CHANGE: { actions: { type: 'changeAttributes', params: ({ event }) => ({ changes: event.changes }) } },
        ADD_OPTION: {
          guard: { type: 'hasOptionText', params: ({ event }) => ({ value: event.value }) },
          actions: { type: 'addOption', params: ({ event }) => ({ value: event.value }) },
        },
        REMOVE_OPTION: { actions: { type: 'removeOption', params: ({ event }) => ({ index: event.index }) } },
        SAVE: { guard: 'isDraftValid', target: 'saving', actions: 'clearError' },
        DISCARD: { target: 'discarded' },
        CLEAR_ERROR: { actions: 'clearError' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'saveField',
        input: ({ context }) => ({ collectionID: context.collectionID, ...withNested(context), field: fieldInputOf(context.draft) }),
        onDone: { target: 'saved', actions: { type: 'keepSaved', params: ({ event }) => ({ field: event.output }) } },
        onError: { target: 'draft', actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    saved: {
      on: {
        OPEN: { guard: 'isEditable', target: 'opened', actions: 'clearError' },
      },
    },
    opened: {
      on: {
        SET_NAME: { actions: { type: 'setName', params: ({ event }) => ({ name: event.name }) } },
        CHANGE: { actions: { type: 'changeAttributes', params: ({ event }) => ({ changes: event.changes }) } },
        ADD_OPTION: {
          guard: { type: 'hasOptionText', params: ({ event }) => ({ value: event.value }) },
          actions: { type: 'addOption', params: ({ event }) => ({ value: event.value }) },
        },
        REMOVE_OPTION: { actions: { type: 'removeOption', params: ({ event }) => ({ index: event.index }) } },
        SAVE: { guard: and(['isDraftValid', 'hasChanges']), target: 'updating', actions: 'clearError' },
        CLOSE: { target: 'saved', actions: ['revertEdits', 'clearError'] },
        DELETE: { target: 'confirmingDelete', actions: 'clearError' },
        CLEAR_ERROR: { actions: 'clearError' },
      },
    },
    updating: {
      tags: ['busy'],
      invoke: {
        src: 'updateField',
        input: ({ context }) => ({
          collectionID: context.collectionID,
          ...withNested(context),
          fieldId: context.saved?.id ?? '',
          changes: fieldInputOf(context.draft, { forUpdate: true }),
        }),
        onDone: { target: 'saved', actions: { type: 'keepSaved', params: ({ event }) => ({ field: event.output }) } },
        onError: { target: 'opened', actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    confirmingDelete: {
      on: {
        CONFIRM_DELETE: { target: 'deleting' },
        CANCEL_DELETE: { target: 'opened' },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        src: 'deleteField',
        input: ({ context }) => ({ collectionID: context.collectionID, ...withNested(context), fieldId: context.saved?.id ?? '' }),
        onDone: { target: 'deleted' },
        onError: { target: 'opened', actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    discarded: { type: 'final' },
    deleted: { type: 'final' },
  },
});
