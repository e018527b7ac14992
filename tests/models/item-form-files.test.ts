/**
 * Model-based test of the item form's files: a new item's chosen files wait in
 * the form, are left out of the create, and are uploaded after it ("Uploading images", then
 * "Images Uploaded" or "An unknown error occurred uploading images"), before the form closes or
 * shows the new item (its own page when some did not land); on a saved item an editor's file call
 * answer (FILE_STORED) rebases the form: unchanged fields take the answer's values, the person's
 * edits stay, and the answer's version is taken only when the server did not also change what
 * the person edited (otherwise the next save meets the 409 it should). Every shortest path of the
 * model is replayed against the real itemFormMachine.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import type { SchemaField } from '../../definitions/field-types/types.ts';
import {
  itemFormMachine,
  type ItemFormDestination,
  type ItemNotice,
  type LoadItemInput,
  type SaveItemInput,
  type UploadFilesInput,
  type UploadFilesOutput,
  type VersionedItemResult,
} from '../../machines/item-form.ts';
import { missingRequiredFields, pendingFiles, valuesToSend, type ItemRecord } from '../../machines/item-form-rules.ts';
import { deferred, problemError, type Deferred } from '../unit/support/deferred.ts';

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

const codeOf = (name: string) => fieldTypes.find((type) => type.name === name)?.code ?? -1;

const schema: SchemaField[] = [
  { id: 'f1', name: 'Title', slug: 'title', type: codeOf('PlainText') },
  { id: 'f2', name: 'Body', slug: 'body', type: codeOf('PlainText') },
  { id: 'f3', name: 'Photo', slug: 'photo', type: codeOf('ImageRef'), required: true },
  { id: 'f4', name: 'Gallery', slug: 'gallery', type: codeOf('ImageRefSet') },
];

const ITEM_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const NEW_ID = 'bbbbbbbbbbbbbbbbbbbbbbbb';

/** Stand-ins for the browser's File objects: the machine keeps them opaque. */
const photoFile = { name: 'photo.png' };
const galleryFiles = [{ name: 'one.png' }, { name: 'two.png' }];
const stored = (name: string, id?: string) => ({ ...(id ? { _id: id } : {}), imageURL: `http://larder.test/files/p/x/${name}`, imageName: name, altText: '', extension: 'png' });

interface ModelContext {
  kind: 'none' | 'new' | 'existing';
  withFiles: boolean;
  closeAfter: boolean;
  titleEdited: boolean;
  /** The last FILE_STORED answer carried someone else's change of the title. */
  clash: boolean;
  uploadOutcome: 'none' | 'all' | 'some' | 'error';
}

const initial: ModelContext = { kind: 'none', withFiles: false, closeAfter: true, titleEdited: false, clash: false, uploadOutcome: 'none' };

const model = setup({
  types: {
    context: {} as ModelContext,
    events: {} as
      | { type: 'START_NEW' }
      | { type: 'START_NEW_WITH_FILES' }
      | { type: 'START_EXISTING' }
      | { type: 'LOADED' }
      | { type: 'KEEP_OPEN' }
      | { type: 'SAVE' }
      | { type: 'CREATED' }
      | { type: 'UPLOADED' }
      | { type: 'UPLOAD_PARTLY_FAILED' }
      | { type: 'UPLOAD_ERROR' }
      | { type: 'EDIT_TITLE' }
      | { type: 'STORED' }
      | { type: 'STORED_AFTER_OTHERS' },
  },
  guards: {
    isNewUntouched: ({ context }) => context.kind === 'new' && context.closeAfter,
    isNew: ({ context }) => context.kind === 'new',
    isExisting: ({ context }) => context.kind === 'existing',
    uploads: ({ context }) => context.withFiles,
    closesAfter: ({ context }) => !context.withFiles && context.closeAfter,
    staysOpen: ({ context }) => !context.withFiles && !context.closeAfter,
    closesAfterUpload: ({ context }) => context.closeAfter,
    staysAfterUpload: ({ context }) => !context.closeAfter,
  },
}).createMachine({
  id: 'itemFormFilesModel',
  context: initial,
  initial: 'closedPage',
  states: {
    closedPage: {
      on: {
        START_NEW: { target: 'editing', actions: assign({ kind: 'new' }) },
        START_NEW_WITH_FILES: { target: 'editing', actions: assign({ kind: 'new', withFiles: true }) },
        START_EXISTING: { target: 'loading', actions: assign({ kind: 'existing' }) },
      },
    },
    loading: { on: { LOADED: 'editing' } },
    editing: {
      on: {
        KEEP_OPEN: { guard: 'isNewUntouched', target: 'editing', actions: assign({ closeAfter: false }) },
        SAVE: { guard: 'isNew', target: 'saving' },
        EDIT_TITLE: { guard: 'isExisting', target: 'editing', actions: assign({ titleEdited: true }) },
        STORED: { guard: 'isExisting', target: 'editing', actions: assign({ clash: false }) },
        STORED_AFTER_OTHERS: { guard: 'isExisting', target: 'editing', actions: assign({ clash: ({ context }) => context.titleEdited }) },
      },
    },
    saving: {
      on: {
        CREATED: [
          { guard: 'uploads', target: 'uploadingFiles' },
          { guard: 'closesAfter', target: 'closed' },
          { guard: 'staysOpen', target: 'itemPage' },
        ],
      },
    },
    uploadingFiles: {
      on: {
        UPLOADED: [
          { guard: 'closesAfterUpload', target: 'closed', actions: assign({ uploadOutcome: 'all' }) },
          { guard: 'staysAfterUpload', target: 'itemPage', actions: assign({ uploadOutcome: 'all' }) },
        ],
        UPLOAD_PARTLY_FAILED: { target: 'itemPage', actions: assign({ uploadOutcome: 'some' }) },
        UPLOAD_ERROR: { target: 'itemPage', actions: assign({ uploadOutcome: 'error' }) },
      },
    },
    closed: { type: 'final' },
    itemPage: { type: 'final' },
  },
});

const serverItem = (itemID: string, fields: Record<string, unknown>, version: number): ItemRecord => ({
  _id: itemID,
  _createdDate: '2026-01-01T00:00:00.000Z',
  _lastUpdatedDate: `2026-01-0${version}T00:00:00.000Z`,
  _order: 1,
  _rank: 'a0',
  ...fields,
});

function createHarness() {
  const pending = {
    load: [] as { input: LoadItemInput; answer: Deferred<VersionedItemResult> }[],
    save: [] as { input: SaveItemInput; answer: Deferred<VersionedItemResult> }[],
    upload: [] as { input: UploadFilesInput; answer: Deferred<UploadFilesOutput> }[],
  };
  const notices: ItemNotice[] = [];
  const navigations: ItemFormDestination[] = [];
  const server = { version: 1, fields: { title: 'Original', body: 'Body', photo: stored('old.png') } as Record<string, unknown> };
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
      uploadFiles: fromPromise<UploadFilesOutput, UploadFilesInput>(({ input }) => {
        const answer = deferred<UploadFilesOutput>();
        pending.upload.push({ input, answer });
        return answer.promise;
      }),
    },
    actions: {
      notify: (_, notice) => notices.push(notice),
      navigate: (_, { destination }) => navigations.push(destination),
      persistCloseAfterSaving: () => {},
    },
  });
  let actor: Actor<typeof machine> | null = null;
  const h = {
    pending,
    notices,
    navigations,
    server,
    get actor() {
      if (!actor) throw new Error('no form is open');
      return actor;
    },
    snapshot: () => h.actor.getSnapshot(),
    start(input: Record<string, unknown>) {
      actor = createActor(machine, { input: { collectionID: 'posts', schema, ...input } }).start();
    },
    send: (event: Parameters<Actor<typeof machine>['send']>[0]) => h.actor.send(event),
    async take<T, I>(queue: { input: I; answer: Deferred<T> }[], settleWith: (answer: Deferred<T>, input: I) => void) {
      const call = queue.shift();
      if (!call) throw new Error('no call is waiting');
      settleWith(call.answer, call.input);
      await settle();
    },
    /** The answer of an editor's upload into the photo: the server's item, maybe changed by someone else meanwhile. */
    stored(othersChanged: boolean) {
      server.version += 1;
      server.fields = { ...server.fields, photo: stored(`new${server.version}.png`), ...(othersChanged ? { title: 'Theirs', body: 'Their body' } : {}) };
      h.send({ type: 'FILE_STORED', slug: 'photo', result: { item: serverItem(ITEM_ID, server.fields, server.version), etag: `v${server.version}` } });
    },
  };
  return h;
}

describe('item form files model', () => {
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('covers every state, each upload outcome and a clash', () => {
    const steps = paths.flatMap((path) => path.steps.map((step) => step.state));
    expect([...new Set(steps.map((state) => String(state.value)))].sort()).toEqual(['closed', 'closedPage', 'editing', 'itemPage', 'loading', 'saving', 'uploadingFiles'].sort());
    for (const outcome of ['all', 'some', 'error']) expect(steps.some((state) => state.context.uploadOutcome === outcome)).toBe(true);
    expect(steps.some((state) => state.context.clash)).toBe(true);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const h = createHarness();
      await path.test({
        events: {
          // A new item whose required photo is already an address (a duplicate's copy): nothing to upload.
          START_NEW: () => h.start({ values: { title: 'Fresh', photo: stored('linked.png') } }),
          START_NEW_WITH_FILES: () =>
            h.start({
              values: {
                title: 'Fresh',
                photo: { file: photoFile, selectedImage: 'blob:1', imageName: 'photo.png', altText: 'A photo' },
                gallery: galleryFiles.map((file) => ({ file, selectedImage: 'blob:2', imageName: file.name })),
              },
            }),
          START_EXISTING: () => h.start({ itemID: ITEM_ID }),
          LOADED: () => h.take(h.pending.load, (answer) => answer.resolve({ item: serverItem(ITEM_ID, h.server.fields, h.server.version), etag: `v${h.server.version}` })),
          KEEP_OPEN: () => h.send({ type: 'SET_CLOSE_AFTER_SAVING', value: false }),
          SAVE: () => {
            if (!h.snapshot().context.changed) h.send({ type: 'CHANGE', slug: 'title', value: 'Fresh' });
            h.send({ type: 'SAVE' });
          },
          CREATED: () =>
            h.take(h.pending.save, (answer, input) => answer.resolve({ item: serverItem(NEW_ID, input.values, 1), etag: 'v1' })),
          UPLOADED: () =>
            h.take(h.pending.upload, (answer) =>
              answer.resolve({ result: { item: serverItem(NEW_ID, { title: 'Fresh', photo: stored('photo.png'), gallery: [stored('one.png', 'g1'), stored('two.png', 'g2')] }, 4), etag: 'v4' }, failed: 0 }),
            ),
          UPLOAD_PARTLY_FAILED: () =>
            h.take(h.pending.upload, (answer) => answer.resolve({ result: { item: serverItem(NEW_ID, { title: 'Fresh', photo: stored('photo.png') }, 2), etag: 'v2' }, failed: 2 })),
          UPLOAD_ERROR: () => h.take(h.pending.upload, (answer) => answer.reject(problemError(0, 'network_error'))),
          EDIT_TITLE: () => h.send({ type: 'CHANGE', slug: 'title', value: 'Mine' }),
          STORED: () => h.stored(false),
          STORED_AFTER_OTHERS: () => h.stored(true),
        },
        states: {
          closedPage: () => expect(h.notices).toEqual([]),
          loading: () => expect(h.pending.load).toHaveLength(1),
          editing: (state) => {
            const c = state.context;
            const snapshot = h.snapshot();
            expect(snapshot.value).toEqual({ form: 'editing' });
            if (c.kind === 'new' && c.withFiles) {
              // A required image with a file waiting is not missing; the files are what the create will be followed by.
              expect(missingRequiredFields(schema, snapshot.context.values)).toEqual([]);
              expect(pendingFiles(schema, snapshot.context.values).map((file) => [file.slug, file.set, file.altText])).toEqual([
                ['photo', false, 'A photo'],
                ['gallery', true, ''],
                ['gallery', true, ''],
              ]);
            }
            if (c.kind === 'existing' && h.server.version > 1) {
              // After an editor's file call: the photo is the answer's; an unedited title too; an edited one stays.
              expect(snapshot.context.values.photo).toEqual(h.server.fields.photo);
              expect(snapshot.context.baseline.photo).toEqual(h.server.fields.photo);
              expect(snapshot.context.values.title).toBe(c.titleEdited ? 'Mine' : h.server.fields.title);
              expect(snapshot.context.item?._lastUpdatedDate).toBe(serverItem(ITEM_ID, {}, h.server.version)._lastUpdatedDate);
              // Someone else's body change is taken (the person did not edit it).
              expect(snapshot.context.values.body).toBe(h.server.fields.body);
              // The version moves on unless the person's edit clashes with the server's.
              expect(snapshot.context.version).toBe(c.clash ? 'v1' : `v${h.server.version}`);
              expect(snapshot.context.changed).toBe(c.titleEdited);
            }
          },
          saving: (state) => {
            const { input } = h.pending.save[0]!;
            expect(input.mode).toBe('create');
            expect(input.values.title).toBe('Fresh');
            if (state.context.withFiles) {
              // The create carries no chosen file: those go after it.
              expect(input.values).not.toHaveProperty('photo');
              expect(input.values.gallery).toEqual([]);
            } else {
              expect(input.values.photo).toEqual(stored('linked.png'));
            }
          },
          uploadingFiles: () => {
            const snapshot = h.snapshot();
            expect(snapshot.value).toBe('uploadingFiles');
            expect(snapshot.hasTag('busy')).toBe(true);
            expect(h.notices.map((notice) => notice.key)).toEqual(['item.created', 'images.uploading']);
            expect(h.navigations).toEqual([]);
            const { input } = h.pending.upload[0]!;
            expect(input).toEqual({
              collectionID: 'posts',
              itemID: NEW_ID,
              files: [
                { slug: 'photo', set: false, file: photoFile, altText: 'A photo' },
                { slug: 'gallery', set: true, file: galleryFiles[0], altText: '' },
                { slug: 'gallery', set: true, file: galleryFiles[1], altText: '' },
              ],
            });
            // The chosen files stay shown while they upload.
            expect(pendingFiles(schema, snapshot.context.values)).toHaveLength(3);
          },
          closed: (state) => {
            expect(h.snapshot().status).toBe('done');
            expect(h.navigations).toEqual([{ kind: 'list' }]);
            expect(h.notices.map((notice) => notice.key)).toEqual(state.context.withFiles ? ['item.created', 'images.uploading', 'images.uploaded'] : ['item.created']);
          },
          itemPage: (state) => {
            const c = state.context;
            const snapshot = h.snapshot();
            expect(h.navigations).toEqual([{ kind: 'item', itemID: NEW_ID }]);
            expect(snapshot.context.itemID).toBe(NEW_ID);
            expect(pendingFiles(schema, snapshot.context.values)).toEqual([]);
            expect(snapshot.context.changed).toBe(false);
            const keys = h.notices.map((notice) => notice.key);
            if (!c.withFiles) expect(keys).toEqual(['item.created']);
            else if (c.uploadOutcome === 'all') expect(keys).toEqual(['item.created', 'images.uploading', 'images.uploaded']);
            else {
              expect(keys).toEqual(['item.created', 'images.uploading', 'images.uploadFailed']);
              expect(h.notices.at(-1)?.tone).toBe('error');
            }
            if (c.uploadOutcome === 'some') expect(snapshot.context.values.photo).toEqual(stored('photo.png'));
          },
        },
      });
    });
  }

  it('sends a nested new item’s files through its top-level item', async () => {
    const h = createHarness();
    h.start({ nestedID: 'chapters', parentItemID: ITEM_ID, values: { photo: { file: photoFile, imageName: 'photo.png' } } });
    h.send({ type: 'SAVE' });
    await h.take(h.pending.save, (answer) => answer.resolve({ item: serverItem(NEW_ID, {}, 1), etag: 'v1' }));
    expect(h.pending.upload[0]!.input).toMatchObject({ itemID: NEW_ID, nestedID: 'chapters', parentItemID: ITEM_ID });
  });

  it('leaves files not uploaded yet out of every save, and keeps stored ones', () => {
    const values = { gallery: [stored('kept.png', 'g1'), { file: photoFile, imageName: 'new.png', selectedImage: 'blob:1' }], photo: { file: photoFile } };
    expect(valuesToSend(schema, values)).toEqual({ gallery: [stored('kept.png', 'g1')] });
  });
});
