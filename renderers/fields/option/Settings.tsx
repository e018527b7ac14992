import { useState } from 'react';
import { Plus, X } from 'lucide-react';
import { contentLimits } from '../../../definitions/content.ts';
import { useFormat } from '../../messages/use-format.ts';
import { SettingField } from '../SettingField.tsx';
import type { SettingsEditorProps } from '../settings-editor-types.ts';

/** Option: the list of choices; at least one with text, empty texts are not added. */
export function OptionSettings({ idBase, draft, send, disabled, change, problemAt, touch }: SettingsEditorProps) {
  const format = useFormat();
  const [text, setText] = useState('');
  const options = draft.options ?? [];
  const add = () => {
    touch('options');
    if (text.trim() === '') return;
    send({ type: 'ADD_OPTION', value: text });
    setText('');
  };
  return (
    <SettingField group id={`${idBase}-options`} label={format('schemaField.options')} error={problemAt('options')}>
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
    </SettingField>
  );
}
