/** The real item-form machine in the cases the model leaves to examples: prefill, destinations, keeping what was typed, settling a conflict. */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
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
import { deferred, problemError, settle, type Deferred } from './support/deferred.ts';

const codeOf = (name: string) => fieldTypes.find((type) => type.name === name)?.code ?? -1;

const schema: SchemaField[] = [
  { id: 'f1', name: 'Title', slug: 'title', type: codeOf('PlainText'), required: true },
  { id: 'f2', name: 'Body', slug: 'body', type: codeOf('PlainText') },
  { id: 'f3', name: 'Starts', slug: 'starts', type: codeOf('Date') },
];

const ITEM_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const stored = { _id: ITEM_ID, _createdDate: '2026-01-01T00:00:00.000Z', _lastUpdatedDate: '2026-01-01T00:00:00.000Z', _order: 1, _rank: 'a0', title: 'Hello', body: 'Body' };

function harness(input: Partial<ItemFormInput> = {}) {
  const calls = {
    load: [] as { input: LoadItemInput; answer: Deferred<VersionedItemResult> }[],
    save: [] as { input: SaveItemInput; answer: Deferred<VersionedItemResult> }[],
    delete: [] as { input: DeleteItemInput; answer: Deferred<unknown> }[],
  };
  const notices: ItemNotice[] = [];
  const navigations: ItemFormDestination[] = [];
  const machine = itemFormMachine.provide({
    actors: {
      loadItem: fromPromise<VersionedItemResult, LoadItemInput>(({ input: given }) => {
        const answer = deferred<VersionedItemResult>();
        calls.load.push({ input: given, answer });
        return answer.promise;
      }),
      saveItem: fromPromise<VersionedItemResult, SaveItemInput>(({ input: given }) => {
        const answer = deferred<VersionedItemResult>();
        calls.save.push({ input: given, answer });
        return answer.promise;
      }),
      deleteItem: fromPromise<unknown, DeleteItemInput>(({ input: given }) => {
        const answer = deferred<unknown>();
        calls.delete.push({ input: given, answer });
        return answer.promise;
      }),
    },
    actions: {
      notify: (_, notice) => notices.push(notice),
      navigate: (_, { destination }) => navigations.push(destination),
    },
  });
  const actor = createActor(machine, { input: { collectionID: 'posts', schema, ...input } }).start();
  return { actor, calls, notices, navigations, state: () => actor.getSnapshot() };
}

async function loaded(input: Partial<ItemFormInput> = {}) {
  const h = harness({ itemID: ITEM_ID, ...input });
  const call = h.calls.load.shift()!;
  call.answer.resolve({ item: { ...stored, _id: call.input.itemID }, etag: 'v1' });
  await settle();
  expect(h.state().value).toEqual({ form: 'editing' });
  return h;
}

describe('item form: new items', () => {
  it('a prefilled new item (calendar, map or kanban click) counts as changed', () => {
    const h = harness({ values: { starts: '2026-03-01T10:00:00.000Z' } });
    expect(h.state().context.changed).toBe(true);
    expect(h.state().can({ type: 'SAVE' })).toBe(true);
  });

  it('a duplicate handed over as input is marked as changed even without values', () => {
    const h = harness({ values: {}, markedChanged: true });
    expect(h.state().context.changed).toBe(true);
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'x' });
    h.actor.send({ type: 'CHANGE', slug: 'title', value: undefined });
    expect(h.state().context.changed).toBe(true);
  });

  it('close after saving off: after a create, to the new item’s page, and the next save updates it with its version', async () => {
    const h = harness({ closeAfterSaving: false });
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'New' });
    h.actor.send({ type: 'SAVE' });
    const create = h.calls.save.shift()!;
    expect(create.input).toEqual({ mode: 'create', collectionID: 'posts', itemID: null, values: { title: 'New' }, version: null });
    create.answer.resolve({ item: { ...stored, _id: 'bbbbbbbbbbbbbbbbbbbbbbbb', title: 'New', body: undefined }, etag: 'v1' });
    await settle();
    expect(h.notices).toEqual([{ tone: 'success', key: 'item.created' }]);
    expect(h.navigations).toEqual([{ kind: 'item', itemID: 'bbbbbbbbbbbbbbbbbbbbbbbb' }]);
    expect(h.state().context).toMatchObject({ itemID: 'bbbbbbbbbbbbbbbbbbbbbbbb', version: 'v1', changed: false });
    h.actor.send({ type: 'CHANGE', slug: 'body', value: 'More' });
    h.actor.send({ type: 'SAVE' });
    expect(h.calls.save[0]!.input).toMatchObject({ mode: 'update', itemID: 'bbbbbbbbbbbbbbbbbbbbbbbb', version: 'v1' });
  });

  it('a single-item collection goes to the single-item view after saving', async () => {
    const h = harness({ singleItem: true });
    expect(h.state().can({ type: 'SAVE' })).toBe(true);
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'The one' });
    h.actor.send({ type: 'SAVE' });
    h.calls.save.shift()!.answer.resolve({ item: { ...stored, title: 'The one' }, etag: 'v1' });
    await settle();
    expect(h.state().value).toBe('closed');
    expect(h.navigations).toEqual([{ kind: 'singleItem' }]);
  });

  it('an answer without an id leaves delete to report "Sorry, something is missing"', async () => {
    const h = harness({ closeAfterSaving: false });
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'New' });
    h.actor.send({ type: 'SAVE' });
    h.calls.save.shift()!.answer.resolve({ item: { title: 'New', body: 'x' }, etag: null });
    await settle();
    expect(h.navigations).toEqual([]);
    h.actor.send({ type: 'DELETE' });
    expect(h.state().value).toBe('confirmingDelete');
    h.actor.send({ type: 'CONFIRM_DELETE' });
    expect(h.state().value).toEqual({ form: 'editing' });
    expect(h.notices.at(-1)).toEqual({ tone: 'error', key: 'item.missingId' });
    expect(h.calls.delete).toHaveLength(0);
  });
});

describe('item form: saving an item', () => {
  it('server refusals come back onto the form and everything typed is kept', async () => {
    const h = await loaded();
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'A very long title' });
    h.actor.send({ type: 'CHANGE', slug: 'body', value: 'Typed body' });
    h.actor.send({ type: 'SAVE' });
    h.calls.save.shift()!.answer.reject(Object.assign(problemError(400, 'validation_failed', 'Some values are not valid. title: too long'), { errors: [{ path: 'title', message: 'too long' }] }));
    await settle();
    const { context } = h.state();
    expect(context.values).toMatchObject({ title: 'A very long title', body: 'Typed body' });
    expect(context.fieldErrors).toEqual({ title: { key: 'item.fieldRefused', values: { field: 'Title', reason: 'too long' } } });
    expect(context.changed).toBe(true);
    expect(h.notices.at(-1)).toEqual({ tone: 'error', key: 'item.updateFailedReason', values: { reason: 'Some values are not valid. title: too long' } });
    // Typing in the field clears its message.
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'Short' });
    expect(h.state().context.fieldErrors).toEqual({});
  });

  it('a conflict is settled field by field and saved against the server’s version', async () => {
    const h = await loaded({ closeAfterSaving: false });
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'Mine' });
    h.actor.send({ type: 'SAVE' });
    const current = { ...stored, _lastUpdatedDate: '2026-01-05T00:00:00.000Z', title: 'Theirs', body: 'Their body' };
    h.calls.save.shift()!.answer.reject(Object.assign(problemError(409, 'stale_item'), { current, etag: 'v2' }));
    await settle();
    expect(h.state().value).toEqual({ form: 'conflict' });
    expect(h.state().context.conflict?.fields.map(({ slug, choice, clash }) => ({ slug, choice, clash }))).toEqual([
      { slug: 'title', choice: 'mine', clash: true },
      { slug: 'body', choice: 'theirs', clash: false },
    ]);
    // While the conflict is open the form cannot be edited, only settled.
    expect(h.state().can({ type: 'CHANGE', slug: 'title', value: 'x' })).toBe(false);
    h.actor.send({ type: 'CHOOSE_ALL', side: 'theirs' });
    h.actor.send({ type: 'CHOOSE', slug: 'title', side: 'mine' });
    h.actor.send({ type: 'SAVE' });
    expect(h.calls.save[0]!.input).toEqual({ mode: 'update', collectionID: 'posts', itemID: ITEM_ID, values: { title: 'Mine', body: 'Their body' }, version: 'v2' });
    h.calls.save.shift()!.answer.resolve({ item: { ...current, title: 'Mine' }, etag: 'v3' });
    await settle();
    expect(h.state().context).toMatchObject({ version: 'v3', changed: false, conflict: null });
    expect(h.notices.map((notice) => notice.key)).toEqual(['item.conflict', 'item.updated']);
  });

  it('a 409 without the current item is an error, not a conflict', async () => {
    const h = await loaded();
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'Mine' });
    h.actor.send({ type: 'SAVE' });
    h.calls.save.shift()!.answer.reject(problemError(409, 'conflict', 'Something clashed'));
    await settle();
    expect(h.state().value).toEqual({ form: 'editing' });
    expect(h.notices.at(-1)).toEqual({ tone: 'error', key: 'item.updateFailedReason', values: { reason: 'Something clashed' } });
  });
});

describe('item form: nested items, leaving, defaults', () => {
  it('a nested item cannot be duplicated; its calls carry the nested address', async () => {
    const h = await loaded({ itemID: 'cccccccccccccccccccccccc', nestedID: 'chapters.cccccccccccccccccccccccc', parentItemID: ITEM_ID });
    expect(h.state().can({ type: 'DUPLICATE' })).toBe(false);
    h.actor.send({ type: 'DELETE' });
    h.actor.send({ type: 'CONFIRM_DELETE' });
    expect(h.calls.delete[0]!.input).toEqual({ collectionID: 'posts', itemID: 'cccccccccccccccccccccccc', nestedID: 'chapters.cccccccccccccccccccccccc', parentItemID: ITEM_ID, version: 'v1' });
  });

  it('leaving for a link the page held back goes there once confirmed', async () => {
    const h = await loaded();
    h.actor.send({ type: 'CHANGE', slug: 'body', value: 'Unsaved' });
    h.actor.send({ type: 'LEAVE', to: { kind: 'elsewhere', to: '/organization/o/project/p' } });
    expect(h.state().value).toBe('confirmingLeave');
    expect(h.navigations).toEqual([]);
    h.actor.send({ type: 'CONFIRM_LEAVE' });
    expect(h.navigations).toEqual([{ kind: 'elsewhere', to: '/organization/o/project/p' }]);
    expect(h.state().status).toBe('done');
  });

  it('duplicate copies the saved item, not the unsaved edits it asked about', async () => {
    const h = await loaded();
    h.actor.send({ type: 'CHANGE', slug: 'title', value: 'Unsaved edit' });
    h.actor.send({ type: 'DUPLICATE' });
    h.actor.send({ type: 'CONFIRM_LEAVE' });
    expect(h.state().context).toMatchObject({ itemID: null, version: null, values: { title: 'Hello', body: 'Body' }, changed: true });
    expect(h.navigations).toEqual([{ kind: 'newItem', values: { title: 'Hello', body: 'Body' } }]);
  });

  it('without provided actors a load fails loudly: "Could not load item" and back to the list', async () => {
    const notices: ItemNotice[] = [];
    const actor = createActor(itemFormMachine.provide({ actions: { notify: (_, notice) => notices.push(notice) } }), {
      input: { collectionID: 'posts', schema, itemID: ITEM_ID },
    }).start();
    await settle();
    expect(actor.getSnapshot().value).toBe('loadFailed');
    expect(notices).toEqual([{ tone: 'error', key: 'item.loadFailed' }]);
  });
});
