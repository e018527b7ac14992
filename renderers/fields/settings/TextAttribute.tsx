import type { Ref } from 'react';
import { HelpAndError } from './HelpAndError.tsx';

export interface TextAttributeProps {
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

/** A labelled one-line text input of the field settings, with its help line and problem. */
export function TextAttribute({ id, label, value, onChange, onBlur, help, error, disabled, readOnly, mono, maxLength, placeholder, inputRef }: TextAttributeProps) {
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
