/**
 * Model-based test of a field's life in the schema editor: drafting (name, slug,
 * reserved slug), saving, discarding, opening, updating, and the two-step delete, each server
 * answer included. Every shortest path of the model is replayed against the real fieldDraftMachine
 * whose actors the test answers by hand.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import type { SchemaField } from '../../definitions/field-types/types.ts';
import { fieldDraftMachine, type DeleteFieldInput, type SaveFieldInput, type UpdateFieldInput } from '../../machines/field-draft.ts';
import { deferred, problemError, settle, type Deferred } from '../unit/support/deferred.ts';

const PLAIN_TEXT = fieldTypes.find((type) => type.name === 'PlainText')?.code ?? -1;
const FIELD_ID = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const savedField: SchemaField = { id: FIELD_ID, name: 'Summary', slug: 'summary', type: PLAIN_TEXT, required: false, primaryField: false };

interface ModelContext {
  hasName: boolean;
  slug: 'derived' | 'reserved' | 'custom';
  /** Edits of an opened field differ from what is saved. */
  changed: boolean;
  error: boolean;
}

const isDraftValid = (context: ModelContext) => context.hasName && context.slug !== 'reserved';

const model = setup({
  types: {
    context: {} as ModelContext,
    events: {} as
      | { type: 'START_NEW' }
      | { type: 'START_SAVED' }
      | { type: 'NAME' }
      | { type: 'CLEAR_NAME' }
      | { type: 'RESERVED_SLUG' }
      | { type: 'CUSTOM_SLUG' }
      | { type: 'SAVE' }
      | { type: 'SAVE_INVALID' }
      | { type: 'SAVED' }
      | { type: 'SAVE_FAILED' }
      | { type: 'DISCARD' }
      | { type: 'OPEN' }
      | { type: 'CLOSE' }
      | { type: 'UPDATED' }
      | { type: 'UPDATE_FAILED' }
      | { type: 'DELETE' }
      | { type: 'CANCEL_DELETE' }
      | { type: 'CONFIRM_DELETE' }
      | { type: 'DELETED' }
      | { type: 'DELETE_FAILED' }
      | { type: 'CLEAR_ERROR' },
  },
  guards: {
    isDraftValid: ({ context }) => isDraftValid(context),
    isDraftInvalid: ({ context }) => !isDraftValid(context),
    hasValidChanges: ({ context }) => context.hasName && context.changed,
    hasError: ({ context }) => context.error,
  },
}).createMachine({
  id: 'fieldDraftModel',
  context: { hasName: false, slug: 'derived', changed: false, error: false },
  initial: 'closed',
  states: {
    closed: {
      on: {
        START_NEW: 'draft',
        START_SAVED: { target: 'saved', actions: assign({ hasName: true }) },
      },
    },
    draft: {
      on: {
        NAME: { target: 'draft', actions: assign({ hasName: true }) },
        CLEAR_NAME: { target: 'draft', actions: assign({ hasName: false }) },
        RESERVED_SLUG: { target: 'draft', actions: assign({ slug: 'reserved' }) },
        CUSTOM_SLUG: { target: 'draft', actions: assign({ slug: 'custom' }) },
        SAVE: { guard: 'isDraftValid', target: 'saving', actions: assign({ error: false }) },
        SAVE_INVALID: { guard: 'isDraftInvalid', target: 'draft' },
        CLEAR_ERROR: { guard: 'hasError', target: 'draft', actions: assign({ error: false }) },
        DISCARD: 'discarded',
      },
    },
    saving: {
      on: {
        SAVED: { target: 'saved', actions: assign({ changed: false }) },
        SAVE_FAILED: { target: 'draft', actions: assign({ error: true }) },
      },
    },
    saved: {
      on: { OPEN: { target: 'opened', actions: assign({ error: false, changed: false }) } },
    },
    opened: {
      on: {
        NAME: { target: 'opened', actions: assign({ hasName: true, changed: true }) },
        CLEAR_NAME: { target: 'opened', actions: assign({ hasName: false, changed: true }) },
        SAVE: { guard: 'hasValidChanges', target: 'updating', actions: assign({ error: false }) },
        CLEAR_ERROR: { guard: 'hasError', target: 'opened', actions: assign({ error: false }) },
        CLOSE: { target: 'saved', actions: assign({ hasName: true, changed: false, error: false }) },
        DELETE: { target: 'confirmingDelete', actions: assign({ error: false }) },
      },
    },
    updating: {
      on: {
        UPDATED: { target: 'saved', actions: assign({ changed: false }) },
        UPDATE_FAILED: { target: 'opened', actions: assign({ error: true }) },
      },
    },
    confirmingDelete: {
      on: { CONFIRM_DELETE: 'deleting', CANCEL_DELETE: 'opened' },
    },
    deleting: {
      on: {
        DELETED: 'deleted',
        DELETE_FAILED: { target: 'opened', actions: assign({ error: true }) },
      },
    },
    discarded: { type: 'final' },
    deleted: { type: 'final' },
  },
});

function createHarness() {
  const pending = {
    save: [] as { input: SaveFieldInput; answer: Deferred<SchemaField> }[],
    update: [] as { input: UpdateFieldInput; answer: Deferred<SchemaField> }[],
    delete: [] as { input: DeleteFieldInput; answer: Deferred<unknown> }[],
  };
  const machine = fieldDraftMachine.provide({
    actors: {
      saveField: fromPromise<SchemaField, SaveFieldInput>(({ input }) => {
        const answer = deferred<SchemaField>();
        pending.save.push({ input, answer });
        return answer.promise;
      }),
      updateField: fromPromise<SchemaField, UpdateFieldInput>(({ input }) => {
        const answer = deferred<SchemaField>();
        pending.update.push({ input, answer });
        return answer.promise;
      }),
      deleteField: fromPromise<unknown, DeleteFieldInput>(({ input }) => {
        const answer = deferred<unknown>();
        pending.delete.push({ input, answer });
        return answer.promise;
      }),
    },
  });
  let actor: Actor<typeof machine> | null = null;
  let names = 0;
  const take = <T>(queue: T[], name: string): T => {
    const next = queue.shift();
    if (next === undefined) throw new Error(`${name} was not called`);
    return next;
  };
  const harness = {
    pending,
    get actor() {
      if (!actor) throw new Error('no field is being edited');
      return actor;
    },
    start(field?: SchemaField) {
      actor = createActor(machine, {
        input: { collectionID: 'posts', siblingSlugs: ['title'], ...(field ? { field } : { type: PLAIN_TEXT }) },
      }).start();
    },
    send: (event: Parameters<Actor<typeof machine>['send']>[0]) => harness.actor.send(event),
    /** A name never used before, so every rename is a change. */
    freshName: () => `Name ${(names += 1)}`,
    async answer<T>(queue: { answer: Deferred<T> }[], name: string, settleWith: (answer: Deferred<T>) => void) {
      settleWith(take(queue, name).answer);
      await settle();
    },
    noCallWaiting() {
      expect(pending.save).toHaveLength(0);
      expect(pending.update).toHaveLength(0);
      expect(pending.delete).toHaveLength(0);
    },
  };
  return harness;
}

describe('field draft model', () => {
  // Guarded-out events would otherwise appear as steps that change nothing in the model.
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every state of the model', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => String(step.state.value))));
    expect([...reached].sort()).toEqual(['closed', 'confirmingDelete', 'deleted', 'deleting', 'discarded', 'draft', 'opened', 'saved', 'saving', 'updating']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const harness = createHarness();
      await path.test({
        events: {
          START_NEW: () => harness.start(),
          START_SAVED: () => harness.start(savedField),
          NAME: () => harness.send({ type: 'SET_NAME', name: harness.freshName() }),
          CLEAR_NAME: () => harness.send({ type: 'SET_NAME', name: '' }),
          RESERVED_SLUG: () => harness.send({ type: 'SET_SLUG', slug: '_createdDate' }),
          CUSTOM_SLUG: () => harness.send({ type: 'SET_SLUG', slug: 'teaser' }),
          SAVE: () => harness.send({ type: 'SAVE' }),
          SAVE_INVALID: () => harness.send({ type: 'SAVE' }),
          SAVED: () =>
            harness.answer(harness.pending.save, 'saveField', (answer) => {
              const { field } = harness.pending.save[0]?.input ?? { field: {} };
              answer.resolve({ ...savedField, ...field, id: FIELD_ID });
            }),
          SAVE_FAILED: () => harness.answer(harness.pending.save, 'saveField', (answer) => answer.reject(problemError(400, 'validation_failed'))),
          DISCARD: () => harness.send({ type: 'DISCARD' }),
          OPEN: () => harness.send({ type: 'OPEN' }),
          CLOSE: () => harness.send({ type: 'CLOSE' }),
          UPDATED: () =>
            harness.answer(harness.pending.update, 'updateField', (answer) => {
              const saved = harness.actor.getSnapshot().context.saved ?? savedField;
              answer.resolve({ ...saved, ...harness.pending.update[0]?.input.changes });
            }),
          UPDATE_FAILED: () => harness.answer(harness.pending.update, 'updateField', (answer) => answer.reject(problemError(409, 'slug_taken'))),
          DELETE: () => harness.send({ type: 'DELETE' }),
          CANCEL_DELETE: () => harness.send({ type: 'CANCEL_DELETE' }),
          CONFIRM_DELETE: () => harness.send({ type: 'CONFIRM_DELETE' }),
          DELETED: () => harness.answer(harness.pending.delete, 'deleteField', (answer) => answer.resolve(undefined)),
          DELETE_FAILED: () => harness.answer(harness.pending.delete, 'deleteField', (answer) => answer.reject(problemError(500, 'internal'))),
          CLEAR_ERROR: () => harness.send({ type: 'CLEAR_ERROR' }),
        },
        states: {
          closed: () => harness.noCallWaiting(),
          draft: (state) => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.value).toBe('draft');
            expect(snapshot.can({ type: 'SAVE' })).toBe(isDraftValid(state.context));
            expect(snapshot.context.error !== null).toBe(state.context.error);
            const { slug } = snapshot.context.draft;
            if (state.context.slug === 'reserved') expect(slug).toBe('_createdDate');
            else if (state.context.slug === 'custom') expect(slug).toBe('teaser');
            else expect(slug === '').toBe(!state.context.hasName);
            harness.noCallWaiting();
          },
          saving: () => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.value).toBe('saving');
            expect(snapshot.hasTag('busy')).toBe(true);
            expect(snapshot.context.error).toBeNull();
            expect(harness.pending.save).toHaveLength(1);
            expect(harness.pending.save[0]?.input.field.name).toMatch(/^Name \d+$/);
          },
          saved: () => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.value).toBe('saved');
            expect(snapshot.context.saved?.id).toBe(FIELD_ID);
            expect(snapshot.context.draft.name).toBe(snapshot.context.saved?.name);
            expect(snapshot.can({ type: 'SET_SLUG', slug: 'x' })).toBe(false);
            harness.noCallWaiting();
          },
          opened: (state) => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.value).toBe('opened');
            expect(snapshot.can({ type: 'SAVE' })).toBe(state.context.hasName && state.context.changed);
            expect(snapshot.can({ type: 'SET_SLUG', slug: 'x' })).toBe(false);
            expect(snapshot.context.error !== null).toBe(state.context.error);
            expect(snapshot.context.draft.name !== '').toBe(state.context.hasName);
            harness.noCallWaiting();
          },
          updating: () => {
            const snapshot = harness.actor.getSnapshot();
            expect(snapshot.value).toBe('updating');
            expect(snapshot.hasTag('busy')).toBe(true);
            expect(harness.pending.update.map((call) => call.input.fieldId)).toEqual([FIELD_ID]);
            expect(harness.pending.update[0]?.input.changes).not.toHaveProperty('slug');
          },
          confirmingDelete: () => {
            expect(harness.actor.getSnapshot().value).toBe('confirmingDelete');
            harness.noCallWaiting();
          },
          deleting: () => {
            expect(harness.actor.getSnapshot().value).toBe('deleting');
            expect(harness.pending.delete.map((call) => call.input)).toEqual([{ collectionID: 'posts', fieldId: FIELD_ID }]);
          },
          discarded: () => {
            expect(harness.actor.getSnapshot().value).toBe('discarded');
            expect(harness.actor.getSnapshot().status).toBe('done');
            harness.noCallWaiting();
          },
          deleted: () => {
            expect(harness.actor.getSnapshot().value).toBe('deleted');
            expect(harness.actor.getSnapshot().status).toBe('done');
            harness.noCallWaiting();
          },
        },
      });
    });
  }
});
