import { fieldType } from '../../../definitions/field-types/index.ts';
import { useFormat } from '../../messages/use-format.ts';
import { SettingField } from '../SettingField.tsx';
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
  const others = (collections ?? []).filter((collection) => collection.id !== collectionID);
  const noneHelp = collections && others.length === 0 ? format('schemaField.noOtherCollections') : undefined;
  return (
    <SettingField id={`${idBase}-referenceCollectionID`} label={format('schemaField.referenceCollectionID')} help={noneHelp} error={problemAt('referenceCollectionID')}>
      {(control) => (
        <select
          {...control}
          className="input"
          value={draft.referenceCollectionID ?? ''}
          disabled={disabled}
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
      )}
    </SettingField>
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
    <SettingField
      group
      id={`${idBase}-nestedRef`}
      label={format('schemaField.nestedReferenceCollectionID')}
      help={nested.length === 0 ? format('schemaField.nestedReferenceNone') : undefined}
    >
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
    </SettingField>
  );
}
