/**
 * A saved collection's name: shown as text with a pencil; the pencil turns it
 * into an input with a tick. The tick (or Enter) saves, Escape cancels; focus goes back to the
 * pencil either way.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Check, Pencil } from 'lucide-react';
import { contentLimits } from '../../../definitions/content.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface CollectionNameEditorProps {
  name: string;
  canEdit: boolean;
  busy?: boolean;
  /** Saves the new name; resolves true when it was saved. */
  onSave: (name: string) => Promise<boolean>;
}

export function CollectionNameEditor({ name, canEdit, busy = false, onSave }: CollectionNameEditorProps) {
  const format = useFormat();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const pencil = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (editing) input.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      pencil.current?.focus();
    }
  }, [editing]);

  const stop = () => {
    returnFocus.current = true;
    setEditing(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    if (busy || next === '') return;
    if (next === name) return stop();
    if (await onSave(next)) stop();
  };

  if (!editing) {
    return (
      <div className="field">
        <span className="field-label" id={`${id}-label`}>
          {format('collectionSettings.name')}
        </span>
        <div className="collection-name-row">
          <span className="collection-name">{name}</span>
          {canEdit ? (
            <button
              ref={pencil}
              type="button"
              className="icon-button"
              aria-label={format('collectionSettings.editName')}
              onClick={() => {
                setDraft(name);
                setEditing(true);
              }}
            >
              <Pencil aria-hidden="true" size={18} />
            </button>
          ) : null}
        </div>
      </div>
    );
  }

  const empty = draft.trim() === '';
  return (
    <form className="field" noValidate onSubmit={submit}>
      <label className="field-label" htmlFor={`${id}-input`}>
        {format('collectionSettings.name')}
      </label>
      <div className="collection-name-row">
        <input
          ref={input}
          id={`${id}-input`}
          className="input"
          autoComplete="off"
          maxLength={contentLimits.collectionNameMax}
          value={draft}
          aria-invalid={empty || undefined}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              setDraft(name);
              stop();
            }
          }}
        />
        <button type="submit" className="icon-button" aria-label={format('collectionSettings.saveName')} disabled={empty} aria-disabled={busy || undefined}>
          <Check aria-hidden="true" size={18} />
        </button>
      </div>
      <p id={`${id}-hint`} className="field-help">
        {empty ? format('collectionSettings.nameRequired') : format('collectionSettings.nameEditHint')}
      </p>
    </form>
  );
}
