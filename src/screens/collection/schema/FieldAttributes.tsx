/**
 * The attributes of one field being defined: those every field has, then
 * the settings its type declares in the registry, each drawn by the editor of that setting. No
 * type code is consulted here: what a type allows is read from its capabilities and settings.
 */
import { useState, type ReactNode, type Ref } from 'react';
import { Plus, X } from 'lucide-react';
import { Switch } from 'radix-ui';
import { contentLimits, defaultAccept, schemaOptionFlags } from '../../../../definitions/content.ts';
import { fieldDraftMessageKeys, type FieldDraft, type FieldDraftChanges, type FieldDraftProblem } from '../../../../definitions/field-draft-rules.ts';
import { fieldType } from '../../../../definitions/field-types/index.ts';
import type { TypeSetting } from '../../../../definitions/field-types/types.ts';
import type { FieldDraftEvent } from '../../../../machines/field-draft.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import type { Collection } from '../../../api/content.ts';
import { CustomScriptSetting } from '../../../../renderers/fields/rich-text/CustomScriptSetting.tsx';
import { useProjectScope } from '../use-project-scope.ts';

export interface FieldAttributesProps {
  /** Prefix of every control's id. */
  idBase: string;
  draft: FieldDraft;
  /** A draft's slug can be edited; a saved field's cannot. */
  isDraft: boolean;
  problems: readonly FieldDraftProblem[];
  send: (event: FieldDraftEvent) => void;
  disabled: boolean;
  collectionID: string;
  collections: readonly Collection[] | undefined;
  nameRef?: Ref<HTMLInputElement>;
}

interface SettingEditorProps extends Omit<FieldAttributesProps, 'nameRef' | 'problems'> {
  change: (changes: FieldDraftChanges) => void;
  /** The message of the problem at `path` once the person has touched it, else undefined. */
  problemAt: (path: string) => string | undefined;
  touch: (path: string) => void;
}

export function FieldAttributes(props: FieldAttributesProps) {
  const { idBase, draft, isDraft, problems, send, disabled, nameRef } = props;
  const format = useFormat();
  const type = fieldType(draft.type);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const touch = (path: string) => setTouched((before) => (before.has(path) ? before : new Set(before).add(path)));
  const problemAt = (path: string) => {
    if (!touched.has(path)) return undefined;
    const problem = problems.find((p) => p.path === path);
    return problem ? format(fieldDraftMessageKeys[problem.code]) : undefined;
  };
  const change = (changes: FieldDraftChanges) => send({ type: 'CHANGE', changes });
  const editorProps: SettingEditorProps = { ...props, change, problemAt, touch };
  const capabilities = type?.capabilities;

  return (
    <div className="field-attributes">
      <div className="field-attributes-grid">
        <TextAttribute
          id={`${idBase}-name`}
          label={format('schemaField.name')}
          value={draft.name}
          maxLength={contentLimits.fieldNameMax}
          disabled={disabled}
          inputRef={nameRef}
          error={problemAt('name')}
          onChange={(name) => {
            touch('name');
            send({ type: 'SET_NAME', name });
          }}
          onBlur={() => touch('name')}
        />
        <TextAttribute
          id={`${idBase}-slug`}
          label={format('schemaField.slug')}
          value={draft.slug}
          mono
          maxLength={contentLimits.slugMax}
          readOnly={!isDraft}
          disabled={disabled}
          help={format(isDraft ? 'schemaField.slugHelp' : 'schemaField.slugFixed')}
          error={isDraft ? problemAt('slug') : undefined}
          onChange={(slug) => {
            touch('slug');
            send({ type: 'SET_SLUG', slug });
          }}
          onBlur={() => touch('slug')}
        />
        <TextAttribute
          id={`${idBase}-helpText`}
          label={format('schemaField.helpText')}
          value={draft.helpText ?? ''}
          maxLength={contentLimits.helpTextMax}
          disabled={disabled}
          help={format('schemaField.helpTextHelp')}
          onChange={(helpText) => change({ helpText })}
        />
      </div>

      <div className="switch-row field-switches">
        {capabilities?.required ? (
          <SwitchAttribute
            id={`${idBase}-required`}
            label={format('schemaField.required')}
            checked={draft.required}
            // A primary field is always required.
            disabled={disabled || draft.primaryField}
            onChange={(required) => change({ required })}
          />
        ) : null}
        {capabilities?.primary ? (
          <SwitchAttribute
            id={`${idBase}-primaryField`}
            label={format('schemaField.primaryField')}
            help={format('schemaField.primaryHelp')}
            checked={draft.primaryField}
            disabled={disabled}
            onChange={(primaryField) => change({ primaryField })}
          />
        ) : null}
        {capabilities?.unique ? (
          <SwitchAttribute id={`${idBase}-unique`} label={format('schemaField.unique')} checked={draft.unique ?? false} disabled={disabled} onChange={(unique) => change({ unique })} />
        ) : null}
        <SwitchAttribute id={`${idBase}-visible`} label={format('schemaField.visible')} checked={draft.visible ?? true} disabled={disabled} onChange={(visible) => change({ visible })} />
        {capabilities?.sortable && schemaOptionFlags.sortedByDefault ? (
          <SwitchAttribute
            id={`${idBase}-sortedByDefault`}
            label={format('schemaField.sortedByDefault')}
            checked={draft.sortedByDefault ?? false}
            disabled={disabled}
            onChange={(sortedByDefault) => change({ sortedByDefault })}
          />
        ) : null}
      </div>
      {problemsOf(problems, ['required', 'primaryField', 'unique']).map((problem) => (
        <p key={problem.code} className="field-error">
          {format(fieldDraftMessageKeys[problem.code])}
        </p>
      ))}

      {type?.settings.map((setting) => {
        const Editor = settingEditors[setting];
        return Editor ? <Editor key={setting} {...editorProps} /> : null;
      })}
    </div>
  );
}

const problemsOf = (problems: readonly FieldDraftProblem[], paths: string[]) => problems.filter((problem) => paths.includes(problem.path));

/** One editor per setting a type may declare; `min` draws both bounds, `nestedCollectionSchema` is the nested builder. */
const settingEditors: Partial<Record<TypeSetting, (props: SettingEditorProps) => ReactNode>> = {
  options: OptionsEditor,
  referenceCollectionID: ReferenceEditor,
  nestedReferenceCollectionID: NestedReferenceEditor,
  accept: AcceptEditor,
  defaultValue: DefaultValueEditor,
  richTextCustomCSS: CustomCssEditor,
  richTextCustomJS: CustomJsEditor,
  min: BoundsEditor,
};

interface TextAttributeProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  help?: string;
  error?: string | undefined;
  disabled?: boolean;
  readOnly?: boolean;
  mono?: boolean;
  maxLength?: number;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement> | undefined;
}

function TextAttribute({ id, label, value, onChange, onBlur, help, error, disabled, readOnly, mono, maxLength, placeholder, inputRef }: TextAttributeProps) {
  const describedBy = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        ref={inputRef}
        className={mono ? 'input input-mono' : 'input'}
        value={value}
        disabled={disabled}
        readOnly={readOnly}
        maxLength={maxLength}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={mono ? false : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <HelpAndError id={id} help={help} error={error} />
    </div>
  );
}

/** The help line and the problem of one attribute, with the ids its input's aria-describedby names. */
function HelpAndError({ id, help, error }: { id: string; help?: string | null | undefined; error?: string | null | undefined }) {
  return (
    <>
      {help ? (
        <p className="field-help" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

interface SwitchAttributeProps {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  help?: string;
}

function SwitchAttribute({ id, label, checked, onChange, disabled, help }: SwitchAttributeProps) {
  return (
    <span className="switch-attribute">
      <label className="switch-label" htmlFor={id} title={help}>
        <Switch.Root id={id} className="switch" checked={checked} disabled={disabled} onCheckedChange={onChange} aria-describedby={help ? `${id}-help` : undefined}>
          <Switch.Thumb className="switch-thumb" />
        </Switch.Root>
        {label}
      </label>
      {help ? (
        <span className="visually-hidden" id={`${id}-help`}>
          {help}
        </span>
      ) : null}
    </span>
  );
}

/** Option: the list of choices; at least one with text, empty texts are not added. */
function OptionsEditor({ idBase, draft, send, disabled, change, problemAt, touch }: SettingEditorProps) {
  const format = useFormat();
  const [text, setText] = useState('');
  const options = draft.options ?? [];
  const add = () => {
    touch('options');
    if (text.trim() === '') return;
    send({ type: 'ADD_OPTION', value: text });
    setText('');
  };
  const error = problemAt('options');
  return (
    <fieldset className="field-setting" aria-describedby={error ? `${idBase}-options-error` : undefined}>
      <legend className="field-label">{format('schemaField.options')}</legend>
      {options.length ? (
        <ol className="option-list">
          {options.map((option, index) => (
            <li key={option._id || `new-${index}`} className="option-row">
              <input
                className="input"
                aria-label={format('schemaField.option', { number: index + 1 })}
                value={option.value}
                maxLength={contentLimits.optionValueMax}
                disabled={disabled}
                onChange={(event) => change({ options: options.map((o, i) => (i === index ? { ...o, value: event.target.value } : o)) })}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={format('schemaField.removeOption', { number: index + 1 })}
                disabled={disabled}
                onClick={() => {
                  touch('options');
                  send({ type: 'REMOVE_OPTION', index });
                }}
              >
                <X aria-hidden="true" size={18} />
              </button>
            </li>
          ))}
        </ol>
      ) : null}
      <div className="option-row">
        <input
          id={`${idBase}-newOption`}
          className="input"
          aria-label={format('schemaField.newOption')}
          placeholder={format('schemaField.newOption')}
          value={text}
          maxLength={contentLimits.optionValueMax}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="button button-small" disabled={disabled || text.trim() === ''} onClick={add}>
          <Plus aria-hidden="true" size={16} />
          {format('schemaField.addOption')}
        </button>
      </div>
      {error ? (
        <p className="field-error" id={`${idBase}-options-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** ItemRef: the collection the linked items come from, one of the project's other collections. */
function ReferenceEditor({ idBase, draft, change, disabled, collectionID, collections, problemAt, touch }: SettingEditorProps) {
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
function NestedReferenceEditor({ idBase, draft, change, disabled, collections }: SettingEditorProps) {
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

/** ImageRef, ImageRefSet: the file types the uploader offers (spec §5 default image/* and PDF). */
function AcceptEditor({ idBase, draft, change, disabled }: SettingEditorProps) {
  const format = useFormat();
  return (
    <div className="field-setting">
      <TextAttribute
        id={`${idBase}-accept`}
        label={format('schemaField.accept')}
        value={draft.accept ?? ''}
        mono
        maxLength={1000}
        placeholder={defaultAccept}
        disabled={disabled}
        help={format('schemaField.acceptHelp', { accept: defaultAccept })}
        onChange={(accept) => change({ accept })}
      />
    </div>
  );
}

/** Bool: the value new items get; not set leaves the switch undecided. */
function DefaultValueEditor({ idBase, draft, change, disabled }: SettingEditorProps) {
  const format = useFormat();
  const id = `${idBase}-defaultValue`;
  const value = draft.defaultValue === true ? 'true' : draft.defaultValue === false ? 'false' : '';
  return (
    <div className="field field-setting">
      <label className="field-label" htmlFor={id}>
        {format('schemaField.defaultValue')}
      </label>
      <select
        id={id}
        className="input"
        value={value}
        disabled={disabled}
        onChange={(event) => change({ defaultValue: event.target.value === '' ? null : event.target.value === 'true' })}
      >
        <option value="">{format('schemaField.defaultValueUnset')}</option>
        <option value="true">{format('schemaField.defaultValueTrue')}</option>
        <option value="false">{format('schemaField.defaultValueFalse')}</option>
      </select>
    </div>
  );
}

/** RichText: CSS applied inside this field's editor. */
function CustomCssEditor({ idBase, draft, change, disabled }: SettingEditorProps) {
  const format = useFormat();
  const id = `${idBase}-richTextCustomCSS`;
  return (
    <div className="field field-setting">
      <label className="field-label" htmlFor={id}>
        {format('schemaField.richTextCustomCSS')}
      </label>
      <textarea
        id={id}
        className="input textarea input-mono"
        rows={4}
        spellCheck={false}
        value={draft.richTextCustomCSS ?? ''}
        maxLength={contentLimits.customCssMax}
        disabled={disabled}
        aria-describedby={`${id}-help`}
        onChange={(event) => change({ richTextCustomCSS: event.target.value })}
      />
      <p className="field-help" id={`${id}-help`}>
        {format('schemaField.richTextCustomCSSHelp')}
      </p>
    </div>
  );
}

/** RichText: the custom script file (Upload Custom JS, View JS File), while the project allows scripts. */
function CustomJsEditor({ idBase, draft, change, disabled }: SettingEditorProps) {
  const scope = useProjectScope();
  return (
    <CustomScriptSetting
      id={`${idBase}-richTextCustomJS`}
      fieldName={draft.name}
      value={draft.richTextCustomJS || undefined}
      onChange={(url) => change({ richTextCustomJS: url })}
      disabled={disabled}
      scope={scope}
    />
  );
}

const wholeNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** PlainText: minimum and maximum character counts. */
function BoundsEditor({ idBase, draft, change, disabled, problemAt, touch }: SettingEditorProps) {
  const format = useFormat();
  const error = problemAt('min');
  const bound = (key: 'min' | 'max') => {
    const id = `${idBase}-${key}`;
    return (
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {format(key === 'min' ? 'schemaField.min' : 'schemaField.max')}
        </label>
        <input
          id={id}
          className="input"
          type="number"
          inputMode="numeric"
          min={0}
          max={contentLimits.plainTextMax}
          step={1}
          value={draft[key] ?? ''}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${idBase}-bounds-error` : undefined}
          onChange={(event) => {
            touch('min');
            change({ [key]: wholeNumber(event.target.value) });
          }}
        />
      </div>
    );
  };
  return (
    <div className="field-setting">
      <div className="field-attributes-grid">
        {bound('min')}
        {bound('max')}
      </div>
      {error ? (
        <p className="field-error" id={`${idBase}-bounds-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
