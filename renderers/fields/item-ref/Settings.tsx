import { fieldType } from '../../../definitions/field-types/index.ts';
import { useFormat } from '../../messages/use-format.ts';
import { HelpAndError } from '../settings/HelpAndError.tsx';
import type { SettingsEditorProps } from '../settings-editor-types.ts';

/** ItemRef's settings: the referenced collection, then the nested collections its picker may reach into. */
export function ItemRefSettings(props: SettingsEditorProps) {
  return (
    <>
      <ReferenceEditor {...props} />
      <NestedReferenceEditor {...props} />
    </>
  );
}

/** ItemRef: the collection the linked items come from, one of the project's other collections. */
function ReferenceEditor({ idBase, draft, change, disabled, collectionID, collections, problemAt, touch }: SettingsEditorProps) {
  const format = useFormat();
  const id = `${idBase}-referenceCollectionID`;
  const others = (collections ?? []).filter((collection) => collection.id !== collectionID);
  const error = problemAt('referenceCollectionID');
  const noneHelp = collections && others.length === 0 ? format('schemaField.noOtherCollections') : undefined;
  const describedBy = [noneHelp ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field field-setting">
      <label className="field-label" htmlFor={id}>
        {format('schemaField.referenceCollectionID')}
      </label>
      <select
        id={id}
        className="input"
        value={draft.referenceCollectionID ?? ''}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => {
          touch('referenceCollectionID');
          change({ referenceCollectionID: event.target.value, nestedReferenceCollectionID: [] });
        }}
        onBlur={() => touch('referenceCollectionID')}
      >
        <option value="">{format('schemaField.chooseCollection')}</option>
        {others.map((collection) => (
          <option key={collection.id} value={collection.id}>
            {collection.name === collection.id ? collection.id : `${collection.name} (${collection.id})`}
          </option>
        ))}
      </select>
      <HelpAndError id={id} help={noneHelp} error={error} />
    </div>
  );
}

/** ItemRef: which nested collections of the referenced collection the picker may reach into. */
function NestedReferenceEditor({ idBase, draft, change, disabled, collections }: SettingsEditorProps) {
  const format = useFormat();
  const target = (collections ?? []).find((collection) => collection.id === draft.referenceCollectionID);
  if (!target) return null;
  const nested = target.schema.filter((field) => fieldType(field.type)?.storage.kind === 'table');
  const chosen = draft.nestedReferenceCollectionID ?? [];
  return (
    <fieldset className="field-setting">
      <legend className="field-label">{format('schemaField.nestedReferenceCollectionID')}</legend>
      {nested.length === 0 ? <p className="field-help">{format('schemaField.nestedReferenceNone')}</p> : null}
      <div className="choices">
        {nested.map((field) => {
          const id = `${idBase}-nestedRef-${field.slug}`;
          return (
            <label key={field.slug} className="choice" htmlFor={id}>
              <input
                id={id}
                type="checkbox"
                checked={chosen.includes(field.slug)}
                disabled={disabled}
                onChange={(event) =>
                  change({ nestedReferenceCollectionID: event.target.checked ? [...chosen, field.slug] : chosen.filter((slug) => slug !== field.slug) })
                }
              />
              {field.name}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
