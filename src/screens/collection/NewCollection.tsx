/**
 * New Collection: name; "Collection ID (only alphanumeric values)" derived
 * from the name until edited by hand and checked as it is typed; Single/Multi (Multi first);
 * RTL/LTR; Create Collection, enabled with a name and a usable ID. After creation the collection's
 * settings open (editCollection) so its schema can be built.
 */
import { useId, useReducer, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { contentLimits } from '../../../definitions/content.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { useCreateCollection } from '../../api/content-queries.ts';
import { isApiError } from '../../api/errors.ts';
import { platformKeys, useOrganization } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectActions, useProjectPath } from '../project/project-context.ts';
import { canCreateCollection, collectionDraftReducer, collectionIdMessage, initialCollectionDraft } from './collection-draft.ts';
import { CollectionTypeToggle } from './CollectionTypeToggle.tsx';
import { DirectionSwitch } from './DirectionSwitch.tsx';
import { useProjectScope } from './use-project-scope.ts';

export function NewCollection() {
  const format = useFormat();
  const id = useId();
  const scope = useProjectScope();
  const { data: organization } = useOrganization(scope.organizationID);
  const actions = useProjectActions();
  const title = format('route.createCollection.title');

  return (
    <div className="settings collection-settings">
      <div className="section-header">
        <h2 id={`${id}-title`}>{title}</h2>
      </div>
      {!organization ? null : actions.create ? (
        <NewCollectionForm labelledBy={`${id}-title`} />
      ) : (
        <p className="panel muted">{format('collectionSettings.cannotCreate')}</p>
      )}
    </div>
  );
}

function NewCollectionForm({ labelledBy }: { labelledBy: string }) {
  const format = useFormat();
  const id = useId();
  const navigate = useNavigate();
  const path = useProjectPath();
  const scope = useProjectScope();
  const queryClient = useQueryClient();
  const create = useCreateCollection(scope);
  const problemMessage = useProblemMessage();
  const [draft, send] = useReducer(collectionDraftReducer, initialCollectionDraft);
  const [nameTouched, setNameTouched] = useState(false);
  const [idTaken, setIdTaken] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const idProblem = collectionIdMessage(draft.id);
  // Live, but not on the untouched form: the first letter of the name is enough to start checking.
  const idError = idTaken === draft.id ? format('collection.idExists') : idProblem && (draft.idEdited || draft.name !== '') ? format(idProblem.key, idProblem.values) : null;
  const nameError = nameTouched && draft.name.trim() === '' ? format('collectionSettings.nameRequired') : null;
  const ready = canCreateCollection(draft);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || create.isPending) return;
    setFormError(null);
    try {
      const collection = await create.mutateAsync({ id: draft.id, name: draft.name.trim(), singleItem: draft.singleItem, rtlDirection: draft.rtlDirection });
      // The project's menu lists its collections from the project.
      void queryClient.invalidateQueries({ queryKey: platformKeys.project(scope.organizationID, scope.projectID) });
      void notify({ kind: 'success', title: format('collection.created') });
      navigate(path('editCollection', { collectionID: collection.id }));
    } catch (error) {
      void notify({ kind: 'error', title: format('collection.createFailed') });
      if (isApiError(error) && error.code === 'collection_exists') setIdTaken(draft.id);
      else setFormError(problemMessage(error));
    }
  };

  return (
    <form className="panel form collection-form" aria-labelledby={labelledBy} noValidate onSubmit={submit}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {format('collectionSettings.name')}
        </label>
        <input
          id={`${id}-name`}
          className="input"
          autoComplete="off"
          maxLength={contentLimits.collectionNameMax}
          value={draft.name}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          onChange={(event) => send({ type: 'NAME', name: event.target.value })}
          onBlur={() => setNameTouched(true)}
        />
        {nameError ? (
          <p id={`${id}-name-error`} className="field-error">
            {nameError}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-id`}>
          {format('collectionSettings.id')}
        </label>
        <input
          id={`${id}-id`}
          className="input input-mono"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={contentLimits.collectionIdMax}
          value={draft.id}
          aria-invalid={idError ? true : undefined}
          aria-describedby={`${id}-id-help ${id}-id-error`}
          onChange={(event) => send({ type: 'ID', id: event.target.value })}
        />
        <p id={`${id}-id-help`} className="field-help">
          {format('collectionSettings.idHelp')}
        </p>
        {/* Always there, so that a problem appearing while typing is announced. */}
        <p id={`${id}-id-error`} className="field-error" aria-live="polite">
          {idError}
        </p>
      </div>
      <CollectionTypeToggle singleItem={draft.singleItem} onChange={(singleItem) => send({ type: 'SINGLE_ITEM', singleItem })} />
      <DirectionSwitch rtlDirection={draft.rtlDirection} onChange={(rtlDirection) => send({ type: 'RTL', rtlDirection })} />
      {formError ? (
        <div role="alert" className="form-alert">
          {formError}
        </div>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={!ready} aria-disabled={create.isPending || undefined}>
          {create.isPending ? format('collectionSettings.creating') : format('collectionSettings.create')}
        </button>
      </div>
    </form>
  );
}
