import type { Control, FieldValues, UseFormRegisterReturn } from 'react-hook-form';
import type { FieldDefinition } from '../../../definitions/forms/types.ts';

/** A choice whose text is data (a project's name), not a catalogue key. */
export interface DataOption {
  value: string;
  text: string;
}

/** What a widget draws with: the label and messages around it belong to the field frame. */
export interface WidgetProps {
  field: FieldDefinition;
  id: string;
  registration: UseFormRegisterReturn;
  /** For widgets that hold their own state (the switch): react-hook-form's controller. */
  control: Control<FieldValues>;
  invalid: boolean;
  required: boolean;
  disabled: boolean;
  describedBy: string | undefined;
  /** Choices of a field with `dynamicOptions`. */
  options?: readonly DataOption[];
}
