/**
 * Model-based test of the item form: loading (found, 404,
 * failure, an item read back with fewer than 2 keys), editing with the has-changes flag, required
 * fields (Bool excepted), create and update with "close after saving" on and off, server
 * refusals per field, a 409 conflict settled field by field, Duplicate, delete, and leaving with
 * unsaved changes. Every shortest path of the model is replayed against the real itemFormMachine
 * whose actors the test answers by hand; the toasts and navigations it asks for are recorded.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import type { SchemaField } from '../../definitions/field-types/types.ts';
import {
  itemFormMachine,
  type DeleteItemInput,
  type ItemFormDestination,
  type ItemFormInput,
  type ItemNotice,
  type LoadItemInput,
  type SaveItemInput,
  type VersionedItemResult,
} from '../../machines/item-form.ts';
import type { ItemRecord } from '../../machines/item-form-rules.ts';
import { deferred, problemError, type Deferred } from '../unit/support/deferred.ts';

/** Lets a settled actor promise reach the machine (a few microtask turns; no timer, the paths are many). */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

const codeOf = (name: string) => fieldTypes.find((type) => type.name === name)?.code ?? -1;

const schema: SchemaField[] = [
  { id: 'f1', name: 'Title', slug: 'title', type: codeOf('PlainText'), required: true },
  { id: 'f2', name: 'Body', slug: 'body', type: codeOf('PlainText') },
  // Required, but a Bool is never empty.
  { id: 'f3', name: 'Done', slug: 'done', type: codeOf('Bool'), required: true },
];

const ITEM_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const NESTED_ITEM_ID = 'cccccccccccccccccccccccc';
const NEW_ID = 'bbbbbbbbbbbbbbbbbbbbbbbb';

interface ModelContext {
  kind: 'none' | 'new' | 'existing';
  single: boolean;
  nested: boolean;
  /** The title differs from the values the form started from. */
  titleEdited: boolean;
  titleEmpty: boolean;
  /** Counts as changed whatever the values (a duplicate, a settled conflict). */
  marked: boolean;
  closeAfter: boolean;
  /** What the title field shows under it. */
  titleError: 'none' | 'required' | 'server';
  reloads: number;
  /** In a conflict (and the save after it): which version of the title is chosen. */
  titleChoice: 'none' | 'mine' | 'theirs';
  leaveFor: 'none' | 'leave' | 'duplicate';
  leaveFrom: 'editing' | 'conflict';
  duplicated: boolean;
}

const changed = (c: ModelContext) => c.marked || c.titleEdited;
const canSave = (c: ModelContext) => changed(c) || (c.kind === 'new' && c.single);
const canDuplicate = (c: ModelContext) => c.kind === 'existing' && !c.nested && !c.single;

const initial: ModelContext = {
  kind: 'none',
  single: false,
  nested: false,
  titleEdited: false,
  titleEmpty: false,
  marked: false,
  closeAfter: true,
  titleError: 'none',
  reloads: 0,
  titleChoice: 'none',
  leaveFor: 'none',
  leaveFrom: 'editing',
  duplicated: false,
};

/** What a successful save leaves: the saved item shown, nothing changed. */
const afterSave = { kind: 'existing' as const, titleEdited: false, titleEmpty: false, marked: false, titleError: 'none' as const, titleChoice: 'none' as const, duplicated: false };
/** What Duplicate leaves: a new form holding the copy, marked as changed. */
const afterDuplicate = { kind: 'new' as const, titleEdited: true, titleEmpty: false, marked: true, titleError: 'none' as const, leaveFor: 'none' as const, duplicated: true };

const model = setup({
  types: {
    context: {} as ModelContext,
    events: {} as
      | { type: 'START_EXISTING' }
      | { type: 'START_NESTED' }
      | { type: 'START_NEW' }
      | { type: 'START_SINGLE_EMPTY' }
      | { type: 'LOADED' }
      | { type: 'LOADED_EMPTY' }
      | { type: 'LOAD_404' }
      | { type: 'LOAD_FAILED' }
      | { type: 'EDIT' }
      | { type: 'CLEAR_TITLE' }
      | { type: 'REVERT' }
      | { type: 'SAVE_DISABLED' }
      | { type: 'SAVE_MISSING' }
      | { type: 'SAVE' }
      | { type: 'TOGGLE_CLOSE' }
      | { type: 'DUPLICATE' }
      | { type: 'DUPLICATE_ASK' }
      | { type: 'DELETE' }
      | { type: 'LEAVE' }
      | { type: 'LEAVE_ASK' }
      | { type: 'SAVED' }
      | { type: 'SAVE_INVALID' }
      | { type: 'SAVE_OFFLINE' }
      | { type: 'SAVE_STALE' }
      | { type: 'CHOOSE_MINE' }
      | { type: 'CHOOSE_THEIRS' }
      | { type: 'RESOLVE' }
      | { type: 'CONFIRM_DELETE' }
      | { type: 'CANCEL_DELETE' }
      | { type: 'DELETED' }
      | { type: 'DELETE_FAILED' }
      | { type: 'CONFIRM_LEAVE' }
      | { type: 'CANCEL_LEAVE' },
  },
  guards: {
    mayReload: ({ context }) => context.reloads < 1,
    untouched: ({ context }) => !changed(context) && context.titleError === 'none' && !context.duplicated,
    mayNotReload: ({ context }) => context.reloads >= 1,
    isExisting: ({ context }) => context.kind === 'existing',
    cannotSave: ({ context }) => !canSave(context),
    savesMissing: ({ context }) => canSave(context) && context.titleEmpty,
    saves: ({ context }) => canSave(context) && !context.titleEmpty,
    duplicatesNow: ({ context }) => canDuplicate(context) && !changed(context),
    duplicateAsks: ({ context }) => canDuplicate(context) && changed(context),
    leavesNow: ({ context }) => !changed(context),
    leaveAsks: ({ context }) => changed(context),
    closesAfter: ({ context }) => context.closeAfter,
    staysOpen: ({ context }) => !context.closeAfter,
    forDuplicate: ({ context }) => context.leaveFor === 'duplicate',
    forLeave: ({ context }) => context.leaveFor === 'leave',
    backToConflict: ({ context }) => context.leaveFrom === 'conflict',
    backToEditing: ({ context }) => context.leaveFrom === 'editing',
  },
}).createMachine({
  id: 'itemFormModel',
  context: initial,
  initial: 'closedPage',
  states: {
    closedPage: {
      on: {
        START_EXISTING: { target: 'loading', actions: assign({ kind: 'existing' }) },
        START_NESTED: { target: 'loading', actions: assign({ kind: 'existing', nested: true }) },
        START_NEW: { target: 'editing', actions: assign({ kind: 'new', titleEmpty: true }) },
        START_SINGLE_EMPTY: { target: 'editing', actions: assign({ kind: 'new', single: true, titleEmpty: true }) },
      },
    },
    loading: {
      on: {
        LOADED: 'editing',
        LOADED_EMPTY: [
          { guard: 'mayReload', target: 'loading', actions: assign({ reloads: ({ context }) => context.reloads + 1 }) },
          { guard: 'mayNotReload', target: 'notFound' },
        ],
        LOAD_404: 'notFound',
        LOAD_FAILED: 'loadFailed',
      },
    },
    notFound: { type: 'final' },
    loadFailed: { type: 'final' },
    editing: {
      on: {
        EDIT: { target: 'editing', actions: assign({ titleEdited: true, titleEmpty: false, titleError: 'none' }) },
        CLEAR_TITLE: { target: 'editing', actions: assign({ titleEdited: true, titleEmpty: true, titleError: 'none' }) },
        REVERT: { guard: 'isExisting', target: 'editing', actions: assign({ titleEdited: false, titleEmpty: false, titleError: 'none' }) },
        SAVE_DISABLED: { guard: 'cannotSave', target: 'editing' },
        SAVE_MISSING: { guard: 'savesMissing', target: 'editing', actions: assign({ titleError: 'required' }) },
        SAVE: { guard: 'saves', target: 'saving', actions: assign({ titleError: 'none' }) },
        // Toggled on a form as it opened (any later toggle acts the same; this keeps the model small).
        TOGGLE_CLOSE: { guard: 'untouched', target: 'editing', actions: assign({ closeAfter: ({ context }) => !context.closeAfter }) },
        DUPLICATE: { guard: 'duplicatesNow', target: 'editing', actions: assign(afterDuplicate) },
        DUPLICATE_ASK: { guard: 'duplicateAsks', target: 'confirmingLeave', actions: assign({ leaveFor: 'duplicate', leaveFrom: 'editing' }) },
        DELETE: { guard: 'isExisting', target: 'confirmingDelete' },
        LEAVE: { guard: 'leavesNow', target: 'left' },
        LEAVE_ASK: { guard: 'leaveAsks', target: 'confirmingLeave', actions: assign({ leaveFor: 'leave', leaveFrom: 'editing' }) },
      },
    },
    saving: {
      on: {
        SAVED: [
          { guard: 'closesAfter', target: 'closed' },
          { guard: 'staysOpen', target: 'editing', actions: assign(afterSave) },
        ],
        SAVE_INVALID: { target: 'editing', actions: assign({ titleError: 'server', titleChoice: 'none' }) },
        SAVE_OFFLINE: { target: 'editing', actions: assign({ titleChoice: 'none' }) },
        SAVE_STALE: {
          guard: 'isExisting',
          target: 'conflict',
          // The title is preselected on the side that changed it; the server always changed it.
          actions: assign({ titleChoice: ({ context }) => (context.titleEdited ? 'mine' : 'theirs') }),
        },
      },
    },
    conflict: {
      on: {
        CHOOSE_MINE: { target: 'conflict', actions: assign({ titleChoice: 'mine' }) },
        CHOOSE_THEIRS: { target: 'conflict', actions: assign({ titleChoice: 'theirs' }) },
        // The settled values are edits of the server's version: marked, and the title differs from it when "mine" is kept.
        RESOLVE: { target: 'saving', actions: assign({ marked: true, titleEdited: ({ context }) => context.titleChoice === 'mine' }) },
        LEAVE_ASK: { target: 'confirmingLeave', actions: assign({ leaveFor: 'leave', leaveFrom: 'conflict' }) },
      },
    },
    confirmingDelete: {
      on: { CONFIRM_DELETE: 'deleting', CANCEL_DELETE: 'editing' },
    },
    deleting: {
      on: { DELETED: 'deleted', DELETE_FAILED: 'editing' },
    },
    confirmingLeave: {
      on: {
        CONFIRM_LEAVE: [
          { guard: 'forDuplicate', target: 'editing', actions: assign(afterDuplicate) },
          { guard: 'forLeave', target: 'left' },
        ],
        CANCEL_LEAVE: [
          { guard: 'backToConflict', target: 'conflict', actions: assign({ leaveFor: 'none', leaveFrom: 'editing' }) },
          { guard: 'backToEditing', target: 'editing', actions: assign({ leaveFor: 'none', leaveFrom: 'editing' }) },
        ],
      },
    },
    closed: { type: 'final' },
    deleted: { type: 'final' },
    left: { type: 'final' },
  },
});

const serverItem = (itemID: string, fields: Record<string, unknown>, version: number): ItemRecord => ({
  _id: itemID,
  _createdDate: '2026-01-01T00:00:00.000Z',
  _lastUpdatedDate: `2026-01-0${Math.min(version, 9)}T00:00:00.000Z`,
  _order: 1,
  _rank: 'a0',
  ...fields,
});

/** The real machine, a hand-answered server and the page's toasts and navigations. */
function createHarness() {
  const pending = {
    load: [] as { input: LoadItemInput; answer: Deferred<VersionedItemResult> }[],
    save: [] as { input: SaveItemInput; answer: Deferred<VersionedItemResult> }[],
    delete: [] as { input: DeleteItemInput; answer: Deferred<unknown> }[],
  };
  const notices: ItemNotice[] = [];
  const navigations: ItemFormDestination[] = [];
  const persisted: boolean[] = [];
  const server = { version: 1, fields: { title: 'Original', body: 'Body', done: false } as Record<string, unknown> };
  const machine = itemFormMachine.provide({
    actors: {
      loadItem: fromPromise<VersionedItemResult, LoadItemInput>(({ input }) => {
        const answer = deferred<VersionedItemResult>();
        pending.load.push({ input, answer });
        return answer.promise;
      }),
      saveItem: fromPromise<VersionedItemResult, SaveItemInput>(({ input }) => {
        const answer = deferred<VersionedItemResult>();
        pending.save.push({ input, answer });
        return answer.promise;
      }),
      deleteItem: fromPromise<unknown, DeleteItemInput>(({ input }) => {
        const answer = deferred<unknown>();
        pending.delete.push({ input, answer });
        return answer.promise;
      }),
    },
    actions: {
      notify: (_, notice) => notices.push(notice),
      navigate: (_, { destination }) => navigations.push(destination),
      persistCloseAfterSaving: (_, { value }) => persisted.push(value),
    },
  });
  let actor: Actor<typeof machine> | null = null;
  let typed = 0;
  let stale = 0;
  /** The title in the form when the last conflict opened: "mine". */
  let mineTitle: unknown;
  const take = <T>(queue: T[], name: string): T => {
    const next = queue.shift();
    if (next === undefined) throw new Error(`${name} was not called`);
    return next;
  };
  const harness = {
    pending,
    notices,
    navigations,
    persisted,
    server,
    get mineTitle() {
      return mineTitle;
    },
    get actor() {
      if (!actor) throw new Error('no form is open');
      return actor;
    },
    snapshot: () => harness.actor.getSnapshot(),
    start(input: Partial<ItemFormInput>) {
      actor = createActor(machine, { input: { collectionID: 'posts', schema, ...input } }).start();
    },
    send: (event: Parameters<Actor<typeof machine>['send']>[0]) => harness.actor.send(event),
    typeTitle: () => harness.send({ type: 'CHANGE', slug: 'title', value: `Mine ${(typed += 1)}` }),
    async answer<T, I>(queue: { input: I; answer: Deferred<T> }[], name: string, settleWith: (answer: Deferred<T>, input: I) => void) {
      const call = take(queue, name);
      settleWith(call.answer, call.input);
      await settle();
    },
    /** The server saves what it was sent, as a new version. */
    async saved() {
      const call = pending.save[0];
      if (!call) throw new Error('saveItem was not called');
      server.version += 1;
      server.fields = { ...server.fields, ...call.input.values };
      const item = serverItem(call.input.itemID ?? NEW_ID, server.fields, server.version);
      await harness.answer(pending.save, 'saveItem', (answer) => answer.resolve({ item, etag: `v${server.version}` }));
    },
    /** Someone else changed the title and the body meanwhile: 409 with the item as it is now. */
    async stale() {
      const call = pending.save[0];
      if (!call) throw new Error('saveItem was not called');
      mineTitle = harness.snapshot().context.values.title;
      stale += 1;
      server.version += 1;
      server.fields = { ...server.fields, title: `Theirs ${stale}`, body: `Server body ${stale}` };
      const current = serverItem(call.input.itemID ?? '', server.fields, server.version);
      const error = Object.assign(problemError(409, 'stale_item', 'The item was changed since you loaded it.'), { current, etag: `v${server.version}` });
      await harness.answer(pending.save, 'saveItem', (answer) => answer.reject(error));
    },
    lastNotice: () => notices.at(-1),
    lastNavigation: () => navigations.at(-1),
    noCallWaiting() {
      expect(pending.load).toHaveLength(0);
      expect(pending.save).toHaveLength(0);
      expect(pending.delete).toHaveLength(0);
    },
  };
  return harness;
}

type Harness = ReturnType<typeof createHarness>;

const homeOf = (c: ModelContext): ItemFormDestination => (c.single ? { kind: 'singleItem' } : { kind: 'list' });

function expectEditing(h: Harness, c: ModelContext, where: 'editing' | 'conflict' = 'editing') {
  const snapshot = h.snapshot();
  expect(snapshot.value).toEqual({ form: where });
  expect(snapshot.context.changed).toBe(changed(c));
  expect(snapshot.context.itemID === null).toBe(c.kind === 'new');
  expect(snapshot.context.closeAfterSaving).toBe(c.closeAfter);
  expect(snapshot.hasTag('busy')).toBe(false);
  h.noCallWaiting();
}

describe('item form model', () => {
  // Guarded-out events would otherwise appear as steps that change nothing in the model.
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every state of the model and the interesting contexts', () => {
    const steps = paths.flatMap((path) => path.steps.map((step) => step.state));
    expect([...new Set(steps.map((state) => String(state.value)))].sort()).toEqual(
      ['closed', 'closedPage', 'confirmingDelete', 'confirmingLeave', 'conflict', 'deleted', 'deleting', 'editing', 'left', 'loadFailed', 'loading', 'notFound', 'saving'].sort(),
    );
    expect(steps.some((state) => state.value === 'conflict' && state.context.titleChoice === 'theirs')).toBe(true);
    expect(steps.some((state) => state.value === 'confirmingLeave' && state.context.leaveFrom === 'conflict')).toBe(true);
    expect(steps.some((state) => state.value === 'editing' && state.context.duplicated && state.context.kind === 'new')).toBe(true);
    expect(steps.some((state) => state.value === 'editing' && state.context.single && state.context.kind === 'existing')).toBe(true);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const h = createHarness();
      await path.test({
        events: {
          START_EXISTING: () => h.start({ itemID: ITEM_ID }),
          START_NESTED: () => h.start({ itemID: NESTED_ITEM_ID, nestedID: `chapters.${NESTED_ITEM_ID}`, parentItemID: ITEM_ID }),
          START_NEW: () => h.start({}),
          START_SINGLE_EMPTY: () => h.start({ singleItem: true }),
          LOADED: () =>
            h.answer(h.pending.load, 'loadItem', (answer, { itemID }) => {
              answer.resolve({ item: serverItem(itemID, h.server.fields, h.server.version), etag: `v${h.server.version}` });
            }),
          LOADED_EMPTY: () => h.answer(h.pending.load, 'loadItem', (answer) => answer.resolve({ item: { _id: ITEM_ID }, etag: null })),
          LOAD_404: () => h.answer(h.pending.load, 'loadItem', (answer) => answer.reject(problemError(404, 'item_not_found', 'Could not find item'))),
          LOAD_FAILED: () => h.answer(h.pending.load, 'loadItem', (answer) => answer.reject(problemError(500, 'internal'))),
          EDIT: () => h.typeTitle(),
          CLEAR_TITLE: () => h.send({ type: 'CHANGE', slug: 'title', value: '' }),
          REVERT: () => h.send({ type: 'CHANGE', slug: 'title', value: h.snapshot().context.baseline.title }),
          SAVE_DISABLED: () => {
            const before = h.snapshot();
            expect(before.can({ type: 'SAVE' })).toBe(false);
            h.send({ type: 'SAVE' });
            expect(h.snapshot().context).toEqual(before.context);
          },
          SAVE_MISSING: () => {
            const notices = h.notices.length;
            h.send({ type: 'SAVE' });
            expect(h.notices.slice(notices)).toEqual([{ tone: 'error', key: 'item.requiredField', values: { field: 'Title' } }]);
          },
          SAVE: () => h.send({ type: 'SAVE' }),
          TOGGLE_CLOSE: () => {
            const value = !h.snapshot().context.closeAfterSaving;
            h.send({ type: 'SET_CLOSE_AFTER_SAVING', value });
            expect(h.persisted.at(-1)).toBe(value);
          },
          DUPLICATE: () => h.send({ type: 'DUPLICATE' }),
          DUPLICATE_ASK: () => h.send({ type: 'DUPLICATE' }),
          DELETE: () => h.send({ type: 'DELETE' }),
          LEAVE: () => h.send({ type: 'LEAVE' }),
          LEAVE_ASK: () => h.send({ type: 'LEAVE' }),
          SAVED: () => h.saved(),
          SAVE_INVALID: () =>
            h.answer(h.pending.save, 'saveItem', (answer) =>
              answer.reject(Object.assign(problemError(400, 'validation_failed', 'Some values are not valid.'), { errors: [{ path: 'title', message: 'must be at most 3 characters' }] })),
            ),
          SAVE_OFFLINE: () => h.answer(h.pending.save, 'saveItem', (answer) => answer.reject(problemError(0, 'network_error', 'Failed to fetch'))),
          SAVE_STALE: () => h.stale(),
          CHOOSE_MINE: () => h.send({ type: 'CHOOSE', slug: 'title', side: 'mine' }),
          CHOOSE_THEIRS: () => h.send({ type: 'CHOOSE', slug: 'title', side: 'theirs' }),
          RESOLVE: () => h.send({ type: 'SAVE' }),
          CONFIRM_DELETE: () => h.send({ type: 'CONFIRM_DELETE' }),
          CANCEL_DELETE: () => h.send({ type: 'CANCEL_DELETE' }),
          DELETED: () => h.answer(h.pending.delete, 'deleteItem', (answer) => answer.resolve(undefined)),
          DELETE_FAILED: () => h.answer(h.pending.delete, 'deleteItem', (answer) => answer.reject(problemError(409, 'stale_item', 'The item was changed'))),
          CONFIRM_LEAVE: () => h.send({ type: 'CONFIRM_LEAVE' }),
          CANCEL_LEAVE: () => h.send({ type: 'CANCEL_LEAVE' }),
        },
        states: {
          closedPage: () => expect(h.notices).toEqual([]),
          loading: (state) => {
            const snapshot = h.snapshot();
            expect(snapshot.value).toBe('loading');
            expect(snapshot.hasTag('busy')).toBe(true);
            expect(snapshot.context.reloads).toBe(state.context.reloads);
            expect(h.pending.load).toHaveLength(1);
            const { input } = h.pending.load[0]!;
            expect(input).toEqual(
              state.context.nested
                ? { collectionID: 'posts', itemID: NESTED_ITEM_ID, nestedID: `chapters.${NESTED_ITEM_ID}`, parentItemID: ITEM_ID }
                : { collectionID: 'posts', itemID: ITEM_ID },
            );
          },
          notFound: (state) => {
            expect(h.snapshot().status).toBe('done');
            expect(h.notices).toEqual([{ tone: 'error', key: 'item.notFound' }]);
            expect(h.navigations).toEqual([homeOf(state.context)]);
          },
          loadFailed: (state) => {
            expect(h.snapshot().status).toBe('done');
            expect(h.notices).toEqual([{ tone: 'error', key: 'item.loadFailed' }]);
            expect(h.navigations).toEqual([homeOf(state.context)]);
          },
          editing: (state) => {
            const c = state.context;
            expectEditing(h, c);
            const snapshot = h.snapshot();
            expect(snapshot.can({ type: 'SAVE' })).toBe(canSave(c));
            expect(snapshot.can({ type: 'DUPLICATE' })).toBe(canDuplicate(c));
            expect(snapshot.can({ type: 'DELETE' })).toBe(c.kind === 'existing');
            expect(snapshot.context.values.title === '' || snapshot.context.values.title === undefined).toBe(c.titleEmpty);
            const titleError = snapshot.context.fieldErrors.title;
            if (c.titleError === 'required') expect(titleError).toEqual({ key: 'item.requiredField', values: { field: 'Title' } });
            else if (c.titleError === 'server') expect(titleError).toEqual({ key: 'item.fieldRefused', values: { field: 'Title', reason: 'must be at most 3 characters' } });
            else expect(titleError).toBeUndefined();
            // The required Bool is never reported missing.
            expect(snapshot.context.fieldErrors.done).toBeUndefined();
            if (c.duplicated && c.kind === 'new') {
              // A duplicate: no id, no dates, order or rank, and the last navigation opened a new-item form with the copy.
              for (const key of ['_id', '_createdDate', '_lastUpdatedDate', '_order', '_rank']) expect(snapshot.context.values).not.toHaveProperty(key);
              expect(snapshot.context.markedChanged).toBe(true);
              expect(h.navigations.some((nav) => nav.kind === 'newItem')).toBe(true);
            }
          },
          saving: (state) => {
            const c = state.context;
            const snapshot = h.snapshot();
            expect(snapshot.value).toBe('saving');
            expect(snapshot.hasTag('busy')).toBe(true);
            expect(h.pending.save).toHaveLength(1);
            const { input } = h.pending.save[0]!;
            expect(input.mode).toBe(c.kind === 'new' ? 'create' : 'update');
            // An update always names the version it was edited from; a create names none.
            expect(input.version).toBe(c.kind === 'new' ? null : `v${h.server.version}`);
            for (const key of Object.keys(input.values)) expect(['title', 'body', 'done']).toContain(key);
            expect(input.values.title).not.toBe('');
            if (c.titleChoice !== 'none') {
              // After a conflict: the chosen title, and the body only the server changed.
              expect(input.values.title).toBe(c.titleChoice === 'mine' ? h.mineTitle : h.server.fields.title);
              expect(input.values.body).toBe(h.server.fields.body);
            }
          },
          conflict: (state) => {
            const c = state.context;
            expectEditing(h, c, 'conflict');
            const conflict = h.snapshot().context.conflict!;
            expect(conflict.etag).toBe(`v${h.server.version}`);
            const title = conflict.fields.find((field) => field.slug === 'title')!;
            expect(title).toMatchObject({ mine: h.mineTitle, theirs: h.server.fields.title, choice: c.titleChoice });
            const body = conflict.fields.find((field) => field.slug === 'body')!;
            expect(body).toMatchObject({ theirs: h.server.fields.body, clash: false, choice: 'theirs' });
            expect(h.notices.some((notice) => notice.key === 'item.conflict')).toBe(true);
          },
          confirmingDelete: () => {
            expect(h.snapshot().value).toBe('confirmingDelete');
            h.noCallWaiting();
          },
          deleting: () => {
            expect(h.snapshot().value).toBe('deleting');
            expect(h.pending.delete).toHaveLength(1);
            expect(h.pending.delete[0]!.input.version).toBe(`v${h.server.version}`);
          },
          confirmingLeave: (state) => {
            const snapshot = h.snapshot();
            expect(snapshot.value).toBe('confirmingLeave');
            expect(snapshot.context.leaveTo?.kind).toBe(state.context.leaveFor === 'duplicate' ? 'newItem' : homeOf(state.context).kind);
            h.noCallWaiting();
          },
          closed: (state) => {
            const snapshot = h.snapshot();
            expect(snapshot.status).toBe('done');
            expect(h.lastNotice()?.key).toBe(state.context.kind === 'new' ? 'item.created' : 'item.updated');
            expect(h.lastNavigation()).toEqual(homeOf(state.context));
          },
          deleted: (state) => {
            expect(h.snapshot().status).toBe('done');
            expect(h.lastNavigation()).toEqual(homeOf(state.context));
          },
          left: (state) => {
            expect(h.snapshot().status).toBe('done');
            expect(h.lastNavigation()).toEqual(homeOf(state.context));
            h.noCallWaiting();
          },
        },
      });
    });
  }
});
