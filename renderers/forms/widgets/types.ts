import type { UseFormRegisterReturn } from 'react-hook-form';
import type { FieldDefinition } from '../../../definitions/forms/types.ts';

/** What a widget draws with: the label and messages around it belong to the field frame. */
export interface WidgetProps {
  field: FieldDefinition;
  id: string;
  registration: UseFormRegisterReturn;
  invalid: boolean;
  required: boolean;
  describedBy: string | undefined;
}
