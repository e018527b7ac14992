/** The widget registry: a form field names its widget, the renderer looks it up here. */
import { lazy, type ComponentType } from 'react';
import type { WidgetName } from '../../../definitions/forms/types.ts';
import { NumberWidget } from './NumberWidget.tsx';
import { SelectWidget } from './SelectWidget.tsx';
import { TextareaWidget } from './TextareaWidget.tsx';
import { TextWidget } from './TextWidget.tsx';
import type { WidgetProps } from './types.ts';

export const widgets: Readonly<Record<WidgetName, ComponentType<WidgetProps>>> = {
  text: TextWidget,
  select: SelectWidget,
  textarea: TextareaWidget,
  // Loaded with the first form that has a switch: the sign-in page carries none.
  switch: lazy(() => import('./SwitchWidget.tsx').then((module) => ({ default: module.SwitchWidget }))),
  number: NumberWidget,
};
