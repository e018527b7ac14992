/** The real field-draft machine with its three actors answered by hand. */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import type { SchemaField } from '../../definitions/field-types/types.ts';
import { fieldDraftErrorOf, fieldDraftMachine, type DeleteFieldInput, type FieldDraftInput, type SaveFieldInput, type UpdateFieldInput } from '../../machines/field-draft.ts';
import { deferred, problemError, settle, type Deferred } from './support/deferred.ts';

const codeOf = (name: string) => {
  const type = fieldTypes.find((candidate) => candidate.name === name);
  if (!type) throw new Error(`no type ${name}`);
  return type.code;
};

const FIELD_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';

function harness(input: Partial<FieldDraftInput> = {}) {
  const calls = {
    save: [] as { input: SaveFieldInput; answer: Deferred<SchemaField> }[],
    update: [] as { input: UpdateFieldInput; answer: Deferred<SchemaField> }[],
    delete: [] as { input: DeleteFieldInput; answer: Deferred<unknown> }[],
  };
  const machine = fieldDraftMachine.provide({
    actors: {
      saveField: fromPromise<SchemaField, SaveFieldInput>(({ input: given }) => {
        const answer = deferred<SchemaField>();
        calls.save.push({ input: given, answer });
        return answer.promise;
      }),
      updateField: fromPromise<SchemaField, UpdateFieldInput>(({ input: given }) => {
        const answer = deferred<SchemaField>();
        calls.update.push({ input: given, answer });
        return answer.promise;
      }),
      deleteField: fromPromise<unknown, DeleteFieldInput>(({ input: given }) => {
        const answer = deferred<unknown>();
        calls.delete.push({ input: given, answer });
        return answer.promise;
      }),
    },
  });
  const actor = createActor(machine, {
    input: { collectionID: 'posts', siblingSlugs: ['title'], collectionIDs: ['posts', 'authors'], type: codeOf('PlainText'), ...input },
  }).start();
  return { actor, calls, state: () => actor.getSnapshot() };
}

const savedField: SchemaField = { id: FIELD_ID, name: 'Summary', slug: 'summary', type: codeOf('PlainText'), required: false, primaryField: false };

describe('field draft machine: draft', () => {
  it('starts as a draft that cannot be saved', () => {
    const { state, actor } = harness();
    expect(state().value).toBe('draft');
    expect(state().context.problems.map((p) => p.code)).toEqual(['nameMissing', 'slugMissing']);
    expect(state().can({ type: 'SAVE' })).toBe(false);
    actor.send({ type: 'SAVE' });
    expect(state().value).toBe('draft');
  });

  it('derives the slug from the name until the slug is edited by hand', () => {
    const { state, actor } = harness();
    actor.send({ type: 'SET_NAME', name: 'Blog summary' });
    expect(state().context.draft.slug).toBe('blogSummary');
    actor.send({ type: 'SET_SLUG', slug: 'teaser' });
    actor.send({ type: 'SET_NAME', name: 'Other name' });
    expect(state().context.draft).toMatchObject({ name: 'Other name', slug: 'teaser' });
    expect(state().context.slugEdited).toBe(true);
  });

  it('refuses a reserved or sibling slug', () => {
    const { state, actor } = harness();
    actor.send({ type: 'SET_NAME', name: 'Title' });
    expect(state().context.problems.map((p) => p.code)).toEqual(['slugTaken']);
    actor.send({ type: 'SET_SLUG', slug: '_rank' });
    expect(state().context.problems.map((p) => p.code)).toEqual(['slugReserved']);
    expect(state().can({ type: 'SAVE' })).toBe(false);
  });

  it('changes the type only to a creatable one, dropping what the new type cannot take', () => {
    const { state, actor } = harness({ type: codeOf('Option') });
    actor.send({ type: 'ADD_OPTION', value: 'Red' });
    actor.send({ type: 'SET_TYPE', fieldType: codeOf('Metadata') });
    expect(state().context.draft.type).toBe(codeOf('Option'));
    actor.send({ type: 'SET_TYPE', fieldType: codeOf('Number') });
    expect(state().context.draft.type).toBe(codeOf('Number'));
    expect(state().context.draft.options).toBeUndefined();
  });

  it('adds only non-empty options, removes by position, and needs one to save', () => {
    const { state, actor } = harness({ type: codeOf('Option') });
    actor.send({ type: 'SET_NAME', name: 'Colour' });
    expect(state().context.problems.map((p) => p.code)).toEqual(['optionsMissing']);
    actor.send({ type: 'ADD_OPTION', value: '   ' });
    expect(state().context.draft.options).toBeUndefined();
    actor.send({ type: 'ADD_OPTION', value: ' Red ' });
    actor.send({ type: 'ADD_OPTION', value: 'Blue' });
    expect(state().context.draft.options).toEqual([
      { _id: '', value: 'Red' },
      { _id: '', value: 'Blue' },
    ]);
    expect(state().can({ type: 'SAVE' })).toBe(true);
    actor.send({ type: 'REMOVE_OPTION', index: 0 });
    actor.send({ type: 'REMOVE_OPTION', index: 0 });
    expect(state().context.draft.options).toEqual([]);
    expect(state().can({ type: 'SAVE' })).toBe(false);
  });

  it('needs a reference collection other than this one for an item reference', () => {
    const { state, actor } = harness({ type: codeOf('ItemRef') });
    actor.send({ type: 'SET_NAME', name: 'Author' });
    expect(state().context.problems.map((p) => p.code)).toEqual(['referenceMissing']);
    actor.send({ type: 'CHANGE', changes: { referenceCollectionID: 'posts' } });
    expect(state().context.problems.map((p) => p.code)).toEqual(['referenceSelf']);
    actor.send({ type: 'CHANGE', changes: { referenceCollectionID: 'authors' } });
    expect(state().can({ type: 'SAVE' })).toBe(true);
  });

  it('forces required when primary goes on, and ignores primary and required where the type cannot have them', () => {
    const { state, actor } = harness();
    actor.send({ type: 'CHANGE', changes: { primaryField: true } });
    expect(state().context.draft).toMatchObject({ primaryField: true, required: true });
    actor.send({ type: 'CHANGE', changes: { required: false } });
    expect(state().context.draft.required).toBe(true);

    const nested = harness({ type: codeOf('NestedCollection') });
    nested.actor.send({ type: 'CHANGE', changes: { primaryField: true, required: true } });
    expect(nested.state().context.draft).toMatchObject({ primaryField: false, required: false });
  });

  it('saves through saveField with the cleaned body and the nested level, then is saved', async () => {
    const { state, actor, calls } = harness({ nestedID: 'chapters', type: codeOf('Option') });
    actor.send({ type: 'SET_NAME', name: ' Colour ' });
    actor.send({ type: 'ADD_OPTION', value: 'Red' });
    actor.send({ type: 'SAVE' });
    expect(state().value).toBe('saving');
    expect(state().hasTag('busy')).toBe(true);
    expect(calls.save[0]?.input).toEqual({
      collectionID: 'posts',
      nestedID: 'chapters',
      field: { type: codeOf('Option'), name: 'Colour', slug: 'colour', helpText: '', required: false, primaryField: false, unique: false, visible: true, options: [{ _id: '', value: 'Red' }] },
    });
    const answer: SchemaField = { id: FIELD_ID, name: 'Colour', slug: 'colour', type: codeOf('Option'), options: [{ _id: 'o1', value: 'Red' }] };
    calls.save[0]?.answer.resolve(answer);
    await settle();
    expect(state().value).toBe('saved');
    expect(state().context.saved).toEqual(answer);
    expect(state().context.draft.options).toEqual([{ _id: 'o1', value: 'Red' }]);
  });

  it('keeps the draft and shows the problem when the server refuses the save', async () => {
    const { state, actor, calls } = harness();
    actor.send({ type: 'SET_NAME', name: 'Summary' });
    actor.send({ type: 'SAVE' });
    const refusal = Object.assign(problemError(400, 'validation_failed', 'The field is invalid.'), {
      problem: { errors: [{ path: 'slug', message: 'is used by another field' }] },
    });
    calls.save[0]?.answer.reject(refusal);
    await settle();
    expect(state().value).toBe('draft');
    expect(state().context.draft).toMatchObject({ name: 'Summary', slug: 'summary' });
    expect(state().context.error).toEqual({
      status: 400,
      code: 'validation_failed',
      detail: 'The field is invalid.',
      errors: [{ path: 'slug', message: 'is used by another field' }],
    });
    actor.send({ type: 'CLEAR_ERROR' });
    expect(state().context.error).toBeNull();
  });

  it('is discarded for good', () => {
    const { state, actor } = harness();
    actor.send({ type: 'DISCARD' });
    expect(state().value).toBe('discarded');
    expect(state().status).toBe('done');
  });

  it('fails loudly when an actor is not provided', async () => {
    const actor = createActor(fieldDraftMachine, { input: { collectionID: 'posts', siblingSlugs: [], type: codeOf('PlainText') } }).start();
    actor.send({ type: 'SET_NAME', name: 'A' });
    actor.send({ type: 'SAVE' });
    await settle();
    expect(actor.getSnapshot().value).toBe('draft');
    expect(actor.getSnapshot().context.error).toMatchObject({ status: null, code: 'unknown', detail: 'saveField is not provided' });
  });
});

describe('field draft machine: saved field', () => {
  it('starts saved when given a field; metadata cannot be opened', () => {
    const { state, actor } = harness({ field: savedField });
    expect(state().value).toBe('saved');
    actor.send({ type: 'OPEN' });
    expect(state().value).toBe('opened');

    const metadata = harness({ field: { id: '_metadata', name: 'Metadata', slug: '_metadata', type: codeOf('Metadata') } });
    expect(metadata.state().can({ type: 'OPEN' })).toBe(false);
  });

  it('keeps the slug once saved: no slug edit, and the name no longer derives it', () => {
    const { state, actor } = harness({ field: savedField });
    actor.send({ type: 'OPEN' });
    expect(state().can({ type: 'SET_SLUG', slug: 'other' })).toBe(false);
    actor.send({ type: 'SET_NAME', name: 'Short summary' });
    expect(state().context.draft.slug).toBe('summary');
  });

  it('updates only when there are valid changes, sending neither type nor slug', async () => {
    const { state, actor, calls } = harness({ field: savedField, nestedID: 'chapters' });
    actor.send({ type: 'OPEN' });
    expect(state().can({ type: 'SAVE' })).toBe(false);
    actor.send({ type: 'SET_NAME', name: '' });
    expect(state().can({ type: 'SAVE' })).toBe(false);
    actor.send({ type: 'SET_NAME', name: 'Teaser' });
    actor.send({ type: 'CHANGE', changes: { helpText: 'Shown in lists' } });
    actor.send({ type: 'SAVE' });
    expect(state().value).toBe('updating');
    expect(calls.update[0]?.input).toEqual({
      collectionID: 'posts',
      nestedID: 'chapters',
      fieldId: FIELD_ID,
      // The plain-text character limits it does not set are sent as null: an update clears what the form left empty.
      changes: { name: 'Teaser', helpText: 'Shown in lists', required: false, primaryField: false, min: null, max: null },
    });
    const answer = { ...savedField, name: 'Teaser', helpText: 'Shown in lists' };
    calls.update[0]?.answer.resolve(answer);
    await settle();
    expect(state().value).toBe('saved');
    expect(state().context.saved).toEqual(answer);
  });

  it('keeps the edits and shows the problem when the update is refused', async () => {
    const { state, actor, calls } = harness({ field: savedField });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'SET_NAME', name: 'Teaser' });
    actor.send({ type: 'SAVE' });
    calls.update[0]?.answer.reject(problemError(403, 'forbidden', 'Not allowed.'));
    await settle();
    expect(state().value).toBe('opened');
    expect(state().context.draft.name).toBe('Teaser');
    expect(state().context.error).toMatchObject({ status: 403, code: 'forbidden', detail: 'Not allowed.', errors: [] });
  });

  it('closing drops the edits', () => {
    const { state, actor } = harness({ field: savedField });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'SET_NAME', name: 'Teaser' });
    actor.send({ type: 'CLOSE' });
    expect(state().value).toBe('saved');
    expect(state().context.draft.name).toBe('Summary');
  });

  it('deletes in two steps, and a cancelled delete returns to the open field', async () => {
    const { state, actor, calls } = harness({ field: savedField });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'CONFIRM_DELETE' });
    expect(state().value).toBe('opened');
    actor.send({ type: 'DELETE' });
    expect(state().value).toBe('confirmingDelete');
    expect(calls.delete).toHaveLength(0);
    actor.send({ type: 'CANCEL_DELETE' });
    expect(state().value).toBe('opened');
    actor.send({ type: 'DELETE' });
    actor.send({ type: 'CONFIRM_DELETE' });
    expect(state().value).toBe('deleting');
    expect(calls.delete[0]?.input).toEqual({ collectionID: 'posts', fieldId: FIELD_ID });
    calls.delete[0]?.answer.resolve(undefined);
    await settle();
    expect(state().value).toBe('deleted');
    expect(state().status).toBe('done');
  });

  it('stays open with the problem when the delete is refused', async () => {
    const { state, actor, calls } = harness({ field: savedField });
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'DELETE' });
    actor.send({ type: 'CONFIRM_DELETE' });
    calls.delete[0]?.answer.reject(problemError(409, 'field_in_use'));
    await settle();
    expect(state().value).toBe('opened');
    expect(state().context.error?.code).toBe('field_in_use');
  });
});

describe('fieldDraftErrorOf', () => {
  it('reads errors at the top level, and copes with non-objects', () => {
    expect(fieldDraftErrorOf({ status: 400, code: 'x', detail: 'd', errors: [{ path: 'name', message: 'm' }, 'junk'] })).toEqual({
      status: 400,
      code: 'x',
      detail: 'd',
      errors: [{ path: 'name', message: 'm' }],
    });
    expect(fieldDraftErrorOf('boom')).toEqual({ status: null, code: 'unknown', detail: '', errors: [] });
  });

  it('words a refusal code it knows from the catalogue, and keeps the message of one it does not', () => {
    const errors = [
      { path: 'schema.0.slug', message: 'server words', code: 'slugTaken', params: { slug: 'title' } },
      { path: 'schema.0.min', message: 'server words', code: 'boundInvalid', params: { max: 5 } },
      { path: 'schema.1', message: 'kept', code: 'somethingNew' },
    ];
    expect(fieldDraftErrorOf({ status: 400, code: 'validation_failed', detail: 'd', errors }).errors).toEqual([
      { path: 'schema.0.slug', message: '"title" is already a field of this schema' },
      { path: 'schema.0.min', message: 'must be a whole number from 0 to 5' },
      { path: 'schema.1', message: 'kept' },
    ]);
  });
});
