/**
 * A field's display in a list cell, turned right to left when the field holds written text of a
 * right-to-left collection (see textDirectionOf); other displays are drawn as they are.
 */
import type { ComponentType } from 'react';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { DisplayProps } from './display-types.ts';
import type { TextDirection } from './editor-environment.ts';
import { textDirectionOf } from './FieldEditor.tsx';
import './editors.css';

export interface DirectedDisplayProps {
  Display: ComponentType<DisplayProps>;
  field: SchemaField;
  value: unknown;
  direction: TextDirection | undefined;
}

export function DirectedDisplay({ Display, field, value, direction }: DirectedDisplayProps) {
  const dir = textDirectionOf(field, direction);
  const shown = <Display value={value} field={field} />;
  return dir ? (
    <div dir={dir} className="cell-direction">
      {shown}
    </div>
  ) : (
    shown
  );
}
