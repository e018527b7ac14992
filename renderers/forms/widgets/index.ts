/** The widget registry: a form field names its widget, the renderer looks it up here. */
import type { ComponentType } from 'react';
import type { WidgetName } from '../../../definitions/forms/types.ts';
import { NumberWidget } from './NumberWidget.tsx';
import { SelectWidget } from './SelectWidget.tsx';
import { SwitchWidget } from './SwitchWidget.tsx';
import { TextareaWidget } from './TextareaWidget.tsx';
import { TextWidget } from './TextWidget.tsx';
import type { WidgetProps } from './types.ts';

export const widgets: Readonly<Record<WidgetName, ComponentType<WidgetProps>>> = {
  text: TextWidget,
  select: SelectWidget,
  textarea: TextareaWidget,
  switch: SwitchWidget,
  number: NumberWidget,
};
