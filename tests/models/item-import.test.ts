/**
 * Model-based test of the Import Items dialog's machine. The model says, after each thing the
 * person or the server does (choosing a CSV, a file whose name names no format, one past the size
 * limit; choosing JSON; Skip bad rows; Import; progress; the answer: imported, refused, failed;
 * Cancel), which file and format are chosen, whether Import may start, whether the file is going
 * up and how far, and the outcome shown. Every shortest path is replayed against the real machine
 * with an upload the test answers by hand.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, fromCallback, setup, type Actor, type AnyEventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { importMaxBytes, importFormatOf } from '../../definitions/item-import.ts';
import { canImport, itemImportMachine, type ImportFileInput } from '../../machines/item-import.ts';

type FileName = 'items.csv' | 'items.txt' | 'big.csv';
type Outcome = 'imported' | 'refused' | 'failed' | 'cancelled';

interface ModelContext {
  file: FileName | null;
  format: 'csv' | 'json' | null;
  skip: boolean;
  sent: number | null;
  outcome: Outcome | null;
}

/** The file chosen, with its name's format (else the one before), and no outcome shown. */
const chosen = (context: ModelContext, file: FileName): Partial<ModelContext> => ({ file, format: file.endsWith('.csv') ? 'csv' : context.format, outcome: null });

const model = setup({
  types: {
    context: {} as ModelContext,
    events: {} as
      | { type: 'CHOOSE_CSV' }
      | { type: 'CHOOSE_TXT' }
      | { type: 'CHOOSE_BIG' }
      | { type: 'PICK_JSON' }
      | { type: 'TOGGLE_SKIP' }
      | { type: 'IMPORT' }
      | { type: 'PROGRESS' }
      | { type: 'IMPORTED' }
      | { type: 'REFUSED' }
      | { type: 'FAILED' }
      | { type: 'CANCEL' },
  },
  guards: {
    // A file within the limit, and a format.
    isReady: ({ context }) => (context.file === 'items.csv' || context.file === 'items.txt') && context.format !== null,
    isJsonUnpicked: ({ context }) => context.format !== 'json',
  },
}).createMachine({
  id: 'itemImportModel',
  context: { file: null, format: null, skip: false, sent: null, outcome: null },
  initial: 'ready',
  states: {
    ready: {
      on: {
        CHOOSE_CSV: { actions: assign(({ context }) => chosen(context, 'items.csv')) },
        CHOOSE_TXT: { actions: assign(({ context }) => chosen(context, 'items.txt')) },
        CHOOSE_BIG: { actions: assign(({ context }) => chosen(context, 'big.csv')) },
        PICK_JSON: { guard: 'isJsonUnpicked', actions: assign({ format: 'json' }) },
        TOGGLE_SKIP: { actions: assign({ skip: ({ context }) => !context.skip }) },
        IMPORT: { guard: 'isReady', target: 'uploading', actions: assign({ sent: 0, outcome: null }) },
      },
    },
    uploading: {
      on: {
        PROGRESS: { actions: assign({ sent: 5 }) },
        // A success forgets the file: the same file is not imported twice by accident.
        IMPORTED: { target: 'ready', actions: assign({ outcome: 'imported', sent: null, file: null }) },
        REFUSED: { target: 'ready', actions: assign({ outcome: 'refused', sent: null }) },
        FAILED: { target: 'ready', actions: assign({ outcome: 'failed', sent: null }) },
        CANCEL: { target: 'ready', actions: assign({ outcome: 'cancelled', sent: null }) },
      },
    },
  },
});

const fileOf = (name: FileName) => {
  const file = new File(['title\nx\n'], name);
  // A file past the limit without making one: only its size is read before sending.
  return name === 'big.csv' ? Object.defineProperty(file, 'size', { value: importMaxBytes + 1 }) : file;
};

class World {
  readonly uploads: { input: ImportFileInput; send: (event: AnyEventObject) => void; stopped: boolean }[] = [];
  imported = 0;
  readonly actor: Actor<typeof itemImportMachine>;

  constructor() {
    const machine = itemImportMachine.provide({
      actors: {
        importFile: fromCallback<AnyEventObject, ImportFileInput>(({ sendBack, input }) => {
          const upload = { input, send: sendBack, stopped: false };
          this.uploads.push(upload);
          return () => {
            upload.stopped = true;
          };
        }),
      },
      actions: {
        itemsImported: () => {
          this.imported += 1;
        },
      },
    });
    this.actor = createActor(machine).start();
  }

  get upload() {
    const upload = this.uploads.at(-1);
    if (!upload) throw new Error('nothing was uploaded');
    return upload;
  }
}

const answer = { importID: 'imp1', imported: 2, skipped: 1, errors: [{ line: 3, path: 'price', message: 'must be a number' }] };

describe('item import model', () => {
  const testModel = createTestModel(model, { filterEvents: (snapshot, event) => snapshot.can(event) });
  const paths = testModel.getShortestPaths();

  it('reaches every outcome, and an upload of each importable file', () => {
    const contexts = paths.flatMap((path) => path.steps.map((step) => step.state.context));
    expect(new Set(contexts.map((context) => context.outcome))).toEqual(new Set([null, 'imported', 'refused', 'failed', 'cancelled']));
    expect(contexts.some((context) => context.sent === 5 && context.file === 'items.txt' && context.format === 'json' && context.skip)).toBe(true);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const world = new World();
      let imports = 0;
      const send = (event: Parameters<Actor<typeof itemImportMachine>['send']>[0]) => world.actor.send(event);
      const check = (state: { value: unknown; context: ModelContext }) => {
        const snapshot = world.actor.getSnapshot();
        const expected = state.context;
        expect(snapshot.value).toBe(state.value);
        expect(snapshot.hasTag('busy')).toBe(state.value === 'uploading');
        expect(snapshot.context.file?.name ?? null).toBe(expected.file);
        expect(snapshot.context.format).toBe(expected.format);
        expect(snapshot.context.skipBadRows).toBe(expected.skip);
        expect(snapshot.context.outcome?.kind ?? null).toBe(expected.outcome);
        expect(snapshot.context.progress?.sent ?? null).toBe(expected.sent);
        expect(canImport(snapshot.context)).toBe(expected.file !== null && expected.file !== 'big.csv' && expected.format !== null);
        // One upload per Import, with the choices of that moment; only the one going up is running.
        expect(world.uploads).toHaveLength(imports);
        expect(world.uploads.filter((upload) => !upload.stopped)).toHaveLength(state.value === 'uploading' ? 1 : 0);
        if (state.value === 'uploading') expect(world.upload.input).toMatchObject({ format: expected.format, skipBadRows: expected.skip, ignoreUnknown: false });
      };
      await path.test({
        events: {
          CHOOSE_CSV: () => send({ type: 'FILE_CHOSEN', file: fileOf('items.csv') }),
          CHOOSE_TXT: () => send({ type: 'FILE_CHOSEN', file: fileOf('items.txt') }),
          CHOOSE_BIG: () => send({ type: 'FILE_CHOSEN', file: fileOf('big.csv') }),
          PICK_JSON: () => send({ type: 'FORMAT_CHOSEN', format: 'json' }),
          TOGGLE_SKIP: () => send({ type: 'OPTION_CHANGED', option: 'skipBadRows', value: !world.actor.getSnapshot().context.skipBadRows }),
          IMPORT: () => {
            imports += 1;
            send({ type: 'IMPORT' });
          },
          PROGRESS: () => world.upload.send({ type: 'IMPORT.PROGRESS', sent: 5, total: 8 }),
          IMPORTED: () => {
            const before = world.imported;
            world.upload.send({ type: 'IMPORT.DONE', answer });
            // The list reads its items again after a success, and only then.
            expect(world.imported).toBe(before + 1);
            expect(world.actor.getSnapshot().context.outcome).toEqual({ kind: 'imported', answer });
          },
          REFUSED: () => world.upload.send({ type: 'IMPORT.REFUSED', errors: answer.errors }),
          FAILED: () => world.upload.send({ type: 'IMPORT.FAILED', error: new Error('offline') }),
          CANCEL: () => send({ type: 'CANCEL' }),
        },
        states: { ready: check, uploading: check },
      });
      expect(world.imported).toBe(path.steps.filter((step) => step.event.type === 'IMPORTED').length);
    });
  }
});

describe('item import formats', () => {
  it('names the format by the extension, in any case, and nothing else', () => {
    expect(['a.csv', 'b.JSON', 'c.ndjson', 'd.jsonl', 'e.tar.CSV', 'f.txt', 'noext', '.csv'].map(importFormatOf)).toEqual(['csv', 'json', 'ndjson', 'ndjson', 'csv', null, null, 'csv']);
  });
});
