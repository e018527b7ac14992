/**
 * The attributes of one field being defined: those every field has, then
 * the settings its type declares, drawn by the type's own settings editor from the console's
 * field registry (renderers/fields/index.ts). No type code is consulted here: what a type allows
 * is read from its capabilities.
 */
import { useState, type Ref } from 'react';
import { Switch } from 'radix-ui';
import { contentLimits, schemaOptionFlags } from '../../../../definitions/content.ts';
import { fieldDraftMessageKeys, type FieldDraft, type FieldDraftChanges, type FieldDraftProblem } from '../../../../definitions/field-draft-rules.ts';
import { fieldType } from '../../../../definitions/field-types/index.ts';
import type { FieldDraftEvent } from '../../../../machines/field-draft.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import type { Collection } from '../../../api/content.ts';
import { fieldRenderers } from '../../../../renderers/fields/index.ts';
import type { SettingsEditorProps } from '../../../../renderers/fields/settings-editor-types.ts';
import { TextAttribute } from '../../../../renderers/fields/settings/TextAttribute.tsx';
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
  const scope = useProjectScope();
  const { collectionID, collections } = props;
  const settingsProps: SettingsEditorProps = { idBase, draft, send, disabled, collectionID, collections, scope, change, problemAt, touch };
  const Settings = type ? fieldRenderers[type.name].Settings : undefined;
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

      {Settings ? <Settings key={type?.name} {...settingsProps} /> : null}
    </div>
  );
}

const problemsOf = (problems: readonly FieldDraftProblem[], paths: string[]) => problems.filter((problem) => paths.includes(problem.path));

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

