/**
 * One item form, wherever it is shown: the item page and the ItemRef picker's linked-item dialog
 * hold the same item-form machine (the owner of the flow: loading, changes, required fields,
 * saving, a 409 settled field by field, leaving with unsaved changes) through `useItemFormSession`,
 * and draw its body with `ItemFormView`: the loading note, the conflict chooser, a refusal no field
 * carries, and one FieldEditor per field (label, required mark, help, errors) through ItemFields.
 * Each host keeps its own chrome: the page its bar, menu and Users panel, the dialog its frame and
 * Cancel/Save footer; `ItemLeaveDialog` is the question both ask before unsaved changes are lost.
 */
import { useRef, useState, type ReactNode } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { leaveItemDialog } from '../../definitions/dialogs/item.ts';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { MessageKey } from '../../definitions/messages/format.ts';
import { itemFormMachine, type DeleteItemInput, type ItemFormDestination, type ItemFormInput, type ItemNotice } from '../../machines/item-form.ts';
import type { Collection, ProjectScope } from '../../src/api/content.ts';
import { useItemCalls } from '../../src/api/content-queries.ts';
import { DialogRenderer } from '../dialogs/DialogRenderer.tsx';
import { useFormat } from '../messages/use-format.ts';
import { notify } from '../toasts/notify.ts';
import { ConflictPanel } from './ConflictPanel.tsx';
import type { EditorEnvironment } from './editor-environment.ts';
import { ItemFields, useFieldProblems } from './ItemFields.tsx';
import { ImageFilesProvider } from './image-ref/image-files.ts';
import { useFormFiles } from './image-ref/use-form-files.ts';
import type { NestedPlaceOfItem } from './nested-collection/nested-place.ts';

/** What the host does where the machine navigates, and whether its form offers Delete. */
export interface ItemFormHost {
  navigate(destination: ItemFormDestination): void;
  persistCloseAfterSaving?(value: boolean): void;
  /** Without it the form offers no delete (the linked-item dialog: linked items are deleted from their own page). */
  canDelete?: boolean;
}

/**
 * The item-form machine with the item calls, the file calls and the toasts provided, and what
 * both hosts read off it. The machine is made once; what it calls is read through a ref, so it
 * always sees this render's values.
 */
export function useItemFormSession(scope: ProjectScope, collection: Collection, schema: readonly SchemaField[], input: Omit<ItemFormInput, 'collectionID' | 'schema' | 'singleItem'>, host: ItemFormHost) {
  const format = useFormat();
  const calls = useItemCalls(scope, collection.id);
  const toast = (notice: ItemNotice) => void notify({ kind: notice.tone, title: format(notice.key as MessageKey, notice.values) });
  const io = useRef({ calls, toast, host, uploadFiles: null as ReturnType<typeof useFormFiles>['uploadFiles'] | null });
  io.current = { ...io.current, calls, toast, host };
  const [canDelete] = useState(host.canDelete ?? false);

  const [logic] = useState(() =>
    itemFormMachine.provide({
      actors: {
        loadItem: fromPromise(({ input: place }) => io.current.calls.load(place)),
        saveItem: fromPromise(({ input: save }) => io.current.calls.save(save)),
        deleteItem: fromPromise<unknown, DeleteItemInput>(async ({ input: place }) => {
          if (!canDelete) throw new Error('deleting is not offered in this form');
          return io.current.calls.remove(place);
        }),
        // A new item's chosen files are uploaded once it is created.
        uploadFiles: fromPromise(({ input: upload }) => {
          if (!io.current.uploadFiles) throw new Error('uploadFiles is not ready');
          return io.current.uploadFiles(upload);
        }),
      },
      actions: {
        navigate: (_, params) => io.current.host.navigate(params.destination),
        notify: (_, params) => io.current.toast(params),
        persistCloseAfterSaving: (_, params) => io.current.host.persistCloseAfterSaving?.(params.value),
      },
    }),
  );
  const [snapshot, send, actorRef] = useMachine(logic, { input: { ...input, collectionID: collection.id, schema, singleItem: collection.singleItem } });
  const { context } = snapshot;

  // Files: the editors upload and remove at once on a saved item; a new item's go after its create.
  const { files, uploadFiles, busy: filesBusy } = useFormFiles(scope, collection.id, context, (slug, result, value) => send({ type: 'FILE_STORED', slug, result, value }));
  io.current.uploadFiles = uploadFiles;

  const { reporters, refuseHeld } = useFieldProblems(schema);
  const inConflict = snapshot.matches({ form: 'conflict' });
  const isNew = context.itemID === null;

  const save = () => {
    // An editor holding a problem: nothing is sent (a conflict's choice is saved as chosen).
    if (!inConflict && refuseHeld()) return;
    send({ type: 'SAVE' });
  };

  return {
    snapshot,
    send,
    actorRef,
    context,
    files,
    filesBusy,
    reporters,
    save,
    inConflict,
    isNew,
    busy: snapshot.hasTag('busy'),
    loading: snapshot.matches('loading') || snapshot.matches('starting'),
    editable: snapshot.matches({ form: 'editing' }),
    canSave: inConflict || context.changed || (isNew && context.singleItem),
  };
}

export type ItemFormSession = ReturnType<typeof useItemFormSession>;

export interface ItemFormViewProps {
  session: ItemFormSession;
  schema: readonly SchemaField[];
  /** Prefix of each editor's id. */
  idPrefix: string;
  className: string;
  environment: EditorEnvironment;
  nestedPlace: NestedPlaceOfItem | null;
  /** The conflict chooser draws its own Save (the page); without it the host's Save saves the choice. */
  saveInConflict?: boolean;
  /** A refusal no field carries, said above the fields. */
  refusal?: string | null;
  /** Frames the fields (the page's two-column layout). */
  frame?: (fields: ReactNode) => ReactNode;
}

/** The form's body: loading, the conflict chooser, a refusal, and the fields with their errors. */
export function ItemFormView({ session, schema, idPrefix, className, environment, nestedPlace, saveInConflict = false, refusal, frame = (fields) => fields }: ItemFormViewProps) {
  const format = useFormat();
  const { context, send, busy } = session;
  if (session.loading) {
    return (
      <p className="muted" role="status">
        {format('item.loading')}
      </p>
    );
  }
  return (
    <>
      {session.inConflict && context.conflict ? (
        <ConflictPanel
          conflict={context.conflict}
          schema={schema}
          busy={busy}
          onChoose={(slug, side) => send({ type: 'CHOOSE', slug, side })}
          onChooseAll={(side) => send({ type: 'CHOOSE_ALL', side })}
          onSave={saveInConflict ? session.save : undefined}
        />
      ) : null}
      {refusal ? (
        <div role="alert" className="form-alert">
          {refusal}
        </div>
      ) : null}
      {frame(
        <ImageFilesProvider value={session.files}>
          <ItemFields
            idPrefix={idPrefix}
            className={className}
            schema={schema}
            values={context.values}
            fieldErrors={context.fieldErrors}
            disabled={!session.editable}
            onChange={(slug, value) => send({ type: 'CHANGE', slug, value })}
            reporters={session.reporters}
            environment={environment}
            nestedPlace={nestedPlace}
          />
        </ImageFilesProvider>,
      )}
    </>
  );
}

/** "Unsaved changes": Leave goes on, Stay (or closing the question) keeps the form; `onStay` lets the host undo a held navigation. */
export function ItemLeaveDialog({ session, onStay }: { session: ItemFormSession; onStay?: () => void }) {
  const { snapshot, send, actorRef } = session;
  const stay = () => {
    send({ type: 'CANCEL_LEAVE' });
    onStay?.();
  };
  return (
    <DialogRenderer
      definition={leaveItemDialog}
      open={snapshot.matches('confirmingLeave')}
      onOpenChange={(open) => {
        if (!open && actorRef.getSnapshot().matches('confirmingLeave')) stay();
      }}
      onAction={(action) => (action === 'leave' ? send({ type: 'CONFIRM_LEAVE' }) : stay())}
    />
  );
}
