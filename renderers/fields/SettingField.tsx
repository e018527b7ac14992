import type { ReactNode } from 'react';
import { HelpAndError } from './settings/HelpAndError.tsx';

/** What the one control of a setting carries so its label, help line and problem name it. */
export interface SettingControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface SettingFieldBase {
  /** The control's id (or, for a group, the base of its help and problem ids). */
  id: string;
  label: string;
  help?: string | null | undefined;
  error?: string | null | undefined;
  /** The frame's class: `field field-setting` unless given. */
  className?: string;
}

export type SettingFieldProps = SettingFieldBase &
  (
    | {
        group?: false;
        /** Marks the control invalid for a problem shown elsewhere (one line under several controls). */
        invalid?: boolean;
        /** Ids of such a problem line, besides this setting's own help and problem. */
        describedBy?: string | undefined;
        children: (control: SettingControlProps) => ReactNode;
      }
    | {
        /** Several controls (choices, a list): a fieldset whose legend is the label, described by the help and problem. */
        group: true;
        children: ReactNode;
      }
  );

/**
 * The frame every field type's settings editor shares: the label (a legend for a group), the
 * control, its help line and its problem, and the ids that tie them together (the control's
 * aria-describedby names the help and the problem shown). The field editors' own frame is
 * FieldEditor.tsx.
 */
export function SettingField(props: SettingFieldProps) {
  const { id, label, help, error } = props;
  const own = [help ? `${id}-help` : '', error ? `${id}-error` : ''];
  if (props.group) {
    const describedBy = own.filter(Boolean).join(' ');
    return (
      <fieldset className={props.className ?? 'field-setting'} aria-describedby={describedBy || undefined}>
        <legend className="field-label">{label}</legend>
        {props.children}
        <HelpAndError id={id} help={help} error={error} />
      </fieldset>
    );
  }
  const describedBy = [...own, props.describedBy ?? ''].filter(Boolean).join(' ');
  return (
    <div className={props.className ?? 'field field-setting'}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {props.children({ id, 'aria-invalid': error || props.invalid ? true : undefined, 'aria-describedby': describedBy || undefined })}
      <HelpAndError id={id} help={help} error={error} />
    </div>
  );
}
