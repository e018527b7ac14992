/**
 * The display of a field's values, from the console's field registry (`index.ts`): every type has
 * its own `renderers/fields/<type>/Display.tsx`. Types with nothing of their own to draw hand their
 * values to the shared TextDisplay.
 */
import type { ComponentType } from 'react';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { DisplayProps } from './display-types.ts';
import { fieldRendererOf, fieldRenderers } from './index.ts';
import { TextDisplay } from './TextDisplay.tsx';

export type { DisplayProps } from './display-types.ts';

/** The display of a field's values; a type nobody gave one draws its registry text. */
export function displayFor(field: SchemaField): ComponentType<DisplayProps> {
  return fieldRendererOf(field.type)?.Display ?? TextDisplay;
}

/** True when `name` (a registry type name) has a display of its own (every registered type must). */
export const hasDisplay = (name: string): boolean => Object.prototype.hasOwnProperty.call(fieldRenderers, name);
