/**
 * The Import Items dialog of the item list (docs/content-storage.md "Importing items"): a file,
 * its format (from the file's name, changeable), Skip bad rows and Ignore unknown columns; Import
 * sends it with upload progress; Cancel stops the upload (the server rolls back: nothing is
 * written). The last outcome stays shown until the next import or another file: the items
 * imported (and the rows skipped, listed), the rows that refused the whole file, or the problem.
 * After a success the file is forgotten, so the same file is not imported twice by accident.
 *
 * The machine does no I/O. The console provides the `importFile` actor (sends IMPORT.PROGRESS
 * while the file goes up, then IMPORT.DONE, IMPORT.REFUSED or IMPORT.FAILED; stopping it aborts
 * the upload) and the action `itemsImported` (the list reads its items again).
 */
import { assign, fromCallback, setup, type AnyEventObject } from 'xstate';
import { importFormatOf, importMaxBytes, type ImportFormat, type ImportRowProblem } from '../definitions/item-import.ts';
import type { ImportAnswer } from '../definitions/schemas/import.ts';

export type ImportOption = 'skipBadRows' | 'ignoreUnknown';

export type ImportOutcome =
  | { kind: 'imported'; answer: ImportAnswer }
  /** All or nothing: these rows refused the file (the first 100), nothing was written. */
  | { kind: 'refused'; errors: ImportRowProblem[] }
  | { kind: 'failed'; error: unknown }
  | { kind: 'cancelled' };

export interface ItemImportContext {
  file: File | null;
  format: ImportFormat | null;
  skipBadRows: boolean;
  ignoreUnknown: boolean;
  /** Bytes sent of the file's bytes, while uploading. */
  progress: { sent: number; total: number } | null;
  outcome: ImportOutcome | null;
}

/** What the import actor sends. */
export interface ImportFileInput {
  file: File;
  format: ImportFormat;
  skipBadRows: boolean;
  ignoreUnknown: boolean;
}

export type ItemImportEvent =
  | { type: 'FILE_CHOSEN'; file: File | null }
  | { type: 'FORMAT_CHOSEN'; format: ImportFormat }
  | { type: 'OPTION_CHANGED'; option: ImportOption; value: boolean }
  | { type: 'IMPORT' }
  | { type: 'CANCEL' }
  | { type: 'IMPORT.PROGRESS'; sent: number; total: number }
  | { type: 'IMPORT.DONE'; answer: ImportAnswer }
  | { type: 'IMPORT.REFUSED'; errors: ImportRowProblem[] }
  | { type: 'IMPORT.FAILED'; error: unknown };

/** A file past the server's limit is refused here, before a byte is sent. */
export const isFileTooLarge = (file: Pick<File, 'size'> | null) => file !== null && file.size > importMaxBytes;

/** Import needs a file within the limit and a format. */
export const canImport = (context: Pick<ItemImportContext, 'file' | 'format'>) => context.file !== null && context.format !== null && !isFileTooLarge(context.file);

export const itemImportMachine = setup({
  types: {
    context: {} as ItemImportContext,
    events: {} as ItemImportEvent,
  },
  actors: {
    // Provided by the console; the default fails loudly when it is forgotten.
    importFile: fromCallback<AnyEventObject, ImportFileInput>(({ sendBack }) => {
      sendBack({ type: 'IMPORT.FAILED', error: new Error('importFile is not provided') });
    }),
  },
  actions: {
    itemsImported: () => {},
  },
  guards: {
    isReady: ({ context }) => canImport(context),
  },
}).createMachine({
  id: 'itemImport',
  context: { file: null, format: null, skipBadRows: false, ignoreUnknown: false, progress: null, outcome: null },
  initial: 'ready',
  states: {
    ready: {
      on: {
        // Another file: its name's format (else the one chosen before), and the last outcome goes.
        FILE_CHOSEN: {
          actions: assign(({ context, event }) => ({ file: event.file, format: (event.file && importFormatOf(event.file.name)) ?? context.format, outcome: null })),
        },
        FORMAT_CHOSEN: { actions: assign({ format: ({ event }) => event.format }) },
        OPTION_CHANGED: { actions: assign(({ event }) => ({ [event.option]: event.value })) },
        IMPORT: { guard: 'isReady', target: 'uploading' },
      },
    },
    uploading: {
      tags: 'busy',
      entry: assign({ outcome: null, progress: ({ context }) => ({ sent: 0, total: context.file?.size ?? 0 }) }),
      exit: assign({ progress: null }),
      invoke: {
        src: 'importFile',
        input: ({ context }) => ({ file: context.file!, format: context.format!, skipBadRows: context.skipBadRows, ignoreUnknown: context.ignoreUnknown }),
      },
      on: {
        'IMPORT.PROGRESS': { actions: assign({ progress: ({ event }) => ({ sent: event.sent, total: event.total }) }) },
        'IMPORT.DONE': {
          target: 'ready',
          actions: [assign({ outcome: ({ event }) => ({ kind: 'imported' as const, answer: event.answer }), file: null }), 'itemsImported'],
        },
        'IMPORT.REFUSED': { target: 'ready', actions: assign({ outcome: ({ event }) => ({ kind: 'refused' as const, errors: event.errors }) }) },
        'IMPORT.FAILED': { target: 'ready', actions: assign({ outcome: ({ event }) => ({ kind: 'failed' as const, error: event.error }) }) },
        // Leaving `uploading` stops the actor, which aborts the upload.
        CANCEL: { target: 'ready', actions: assign({ outcome: { kind: 'cancelled' } }) },
      },
    },
  },
});
