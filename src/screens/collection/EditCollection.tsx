/**
 * Edit Collection: the name in a pencil/tick edit mode, the ID read-only,
 * Single/Multi (Single refused while more than one item exists), RTL/LTR, the schema builder,
 * Done (to the collection, which shows the single item or the list by its type) and the Delete
 * Collection dialog. Every change is saved at once with PUT collection/{id}.
 */
import { useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ui } from '../../../definitions/constants.ts';
import { ConfirmNameDialog } from '../../../renderers/dialogs/ConfirmNameDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Collection, CollectionChanges, ProjectScope } from '../../api/content.ts';
import { contentKeys } from '../../api/content-keys.ts';
import { useCollection, useDeleteCollection, useUpdateCollection } from '../../api/content-queries.ts';
import { isApiError } from '../../api/errors.ts';
import { platformKeys, useOrganization } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { CopyButton } from '../../shell/CopyButton.tsx';
import { useProjectActions, useProjectPath } from '../project/project-context.ts';
import { CollectionNameEditor } from './CollectionNameEditor.tsx';
import { CollectionTypeToggle } from './CollectionTypeToggle.tsx';
import { DirectionSwitch } from './DirectionSwitch.tsx';
import { SchemaBuilder } from './schema/SchemaBuilder.tsx';
import { useProjectScope } from './use-project-scope.ts';

export function EditCollection({ collectionID }: { collectionID: string }) {
  const format = useFormat();
  const path = useProjectPath();
  const scope = useProjectScope();
  // Once deleted, the collection is not asked for again while the project page opens.
  const [deleted, setDeleted] = useState(false);
  const query = useCollection(scope, collectionID, { enabled: !deleted });
  const last = useRef<Collection | undefined>(undefined);
  if (query.data) last.current = query.data;
  const collection = query.data ?? (deleted ? last.current : undefined);
  // What the member may change comes with the organization: wait for it rather than flash a read-only form.
  const { data: organization } = useOrganization(scope.organizationID);

  if (!collection || !organization) {
    if (query.isError && !collection) {
      const notFound = isApiError(query.error) && query.error.status === 404;
      return (
        <section className="panel collection-missing" aria-labelledby="collection-missing">
          <h2 id="collection-missing">{format(notFound ? 'collectionSettings.notFound' : 'collectionSettings.loadFailed')}</h2>
          {notFound ? <p>{format('collectionSettings.notFoundHint', { id: collectionID })}</p> : null}
          <Link to={path('noCollectionSelected')}>{format('collectionSettings.backToProject')}</Link>
        </section>
      );
    }
    return (
      <p className="muted" role="status">
        {format('collectionSettings.loading')}
      </p>
    );
  }
  return <EditCollectionForm scope={scope} collection={collection} onDeleted={() => setDeleted(true)} />;
}

function EditCollectionForm({ scope, collection, onDeleted }: { scope: ProjectScope; collection: Collection; onDeleted: () => void }) {
  const format = useFormat();
  const id = useId();
  const navigate = useNavigate();
  const path = useProjectPath();
  const queryClient = useQueryClient();
  const actions = useProjectActions();
  const update = useUpdateCollection(scope, collection.id);
  const [typeRefused, setTypeRefused] = useState(false);

  /**
   * Saves one change; true when the server took it. Controls stay enabled while a save is under
   * way (disabling the focused one would drop keyboard focus); a second change waits for the first.
   */
  const save = async (changes: CollectionChanges): Promise<boolean> => {
    try {
      await update.mutateAsync(changes);
      void queryClient.invalidateQueries({ queryKey: platformKeys.project(scope.organizationID, scope.projectID) });
      void notify({ kind: 'success', title: format('collection.updated') });
      return true;
    } catch (error) {
      void notify({ kind: 'error', title: format('collection.updateFailed') });
      if (isApiError(error) && error.code === 'single_item_too_many') {
        setTypeRefused(true);
        // The item count we showed was out of date.
        void queryClient.invalidateQueries({ queryKey: contentKeys.collection(scope, collection.id), exact: true });
      }
      return false;
    }
  };

  const pending = update.isPending ? update.variables : undefined;
  const singleItem = pending?.singleItem ?? collection.singleItem;
  const rtlDirection = pending?.rtlDirection ?? collection.rtlDirection;
  // Becoming single needs at most one item; going back to multi is always allowed.
  const singleRefused = !collection.singleItem && collection.itemCount > 1;
  const warning = singleRefused || typeRefused ? format('collection.singleItemTooMany') : null;
  const canUpdate = actions.update;

  return (
    <div className="settings collection-settings">
      <div className="section-header">
        <h2 id={`${id}-title`}>{format('route.editCollection.title')}</h2>
        <div className="section-actions">
          <button type="button" className="button button-primary" onClick={() => navigate(path(collection.singleItem ? 'viewSingleItem' : 'viewCollection', { collectionID: collection.id }))}>
            {format('collectionSettings.done')}
          </button>
        </div>
      </div>
      <section className="panel form collection-form" aria-labelledby={`${id}-title`}>
        <CollectionNameEditor name={collection.name} canEdit={canUpdate} busy={update.isPending} onSave={(name) => save({ name })} />
        <div className="field">
          <label className="field-label" htmlFor={`${id}-id`}>
            {format('collectionSettings.id')}
          </label>
          <div className="input-row">
            <input id={`${id}-id`} className="input input-mono" readOnly value={collection.id} aria-describedby={`${id}-id-help`} />
            <CopyButton value={collection.id} label={format('collectionSettings.copyId')} />
          </div>
          <p id={`${id}-id-help`} className="field-help">
            {format('collectionSettings.idFixed')}
          </p>
        </div>
        <CollectionTypeToggle
          singleItem={singleItem}
          disabled={!canUpdate}
          singleDisabled={singleRefused}
          warning={warning}
          onChange={async (next) => {
            if (update.isPending) return;
            if (await save({ singleItem: next })) setTypeRefused(false);
          }}
        />
        <DirectionSwitch
          rtlDirection={rtlDirection}
          disabled={!canUpdate}
          onChange={(next) => {
            if (!update.isPending) void save({ rtlDirection: next });
          }}
        />
        {canUpdate ? null : <p className="muted">{format('collectionSettings.readOnly')}</p>}
      </section>
      <SchemaBuilder scope={scope} collection={collection} />
      {actions.delete ? <DeleteCollection scope={scope} collection={collection} onDeleted={onDeleted} /> : null}
    </div>
  );
}

function DeleteCollection({ scope, collection, onDeleted }: { scope: ProjectScope; collection: Collection; onDeleted: () => void }) {
  const format = useFormat();
  const id = useId();
  const navigate = useNavigate();
  const path = useProjectPath();
  const queryClient = useQueryClient();
  const problemMessage = useProblemMessage();
  const [open, setOpen] = useState(false);
  const remove = useDeleteCollection(scope, collection.id);
  return (
    <section className="panel panel-danger" aria-labelledby={`${id}-danger`}>
      <h3 id={`${id}-danger`}>{format('collectionSettings.dangerZone')}</h3>
      <p>{format('collection.delete.body')}</p>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        {format('collection.delete.button')}
      </button>
      <ConfirmNameDialog
        open={open}
        onOpenChange={(next) => {
          if (!next) remove.reset();
          setOpen(next);
        }}
        name="deleteCollection"
        widthPx={ui.deleteDialogWidthPx}
        title={format('collection.delete.title')}
        body={`${format('collection.delete.body')} ${format('collection.delete.typeId', { id: collection.id })}`}
        inputLabel={format('collection.delete.label')}
        expected={collection.id}
        mismatchMessage={format('collection.delete.mismatch')}
        confirmLabel={format('collection.delete.confirm')}
        busyLabel={format('form.deleting')}
        cancelLabel={format('form.cancel')}
        busy={remove.isPending}
        error={remove.error ? problemMessage(remove.error) : null}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              onDeleted();
              void queryClient.invalidateQueries({ queryKey: platformKeys.project(scope.organizationID, scope.projectID) });
              void notify({ kind: 'success', title: format('collection.deleted') });
              setOpen(false);
              navigate(path('noCollectionSelected'), { replace: true });
            },
            onError: (error) => void notify({ kind: 'error', title: format('collection.deleteFailed', { reason: problemMessage(error) }) }),
          })
        }
      />
    </section>
  );
}
