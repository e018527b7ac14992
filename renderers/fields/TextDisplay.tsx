/** The default display: the text the type's registry entry gives for the value. */
import { fieldType } from '../../definitions/field-types/index.ts';
import type { DisplayProps } from './display-types.ts';

export function TextDisplay({ value, field }: DisplayProps) {
  if (value === null || value === undefined) return null;
  const text = fieldType(field.type)?.display(value, field) ?? '';
  return <span className="cell-text">{text}</span>;
}
