/**
 * The icon a field type declares in its definition folder (`icon: 'map-pin'`), drawn with the
 * lucide icon of the type's console renderer. Looked up by the icon's name, never by a type code;
 * a name nobody drew gets a neutral shape.
 */
import { Circle, type LucideIcon } from 'lucide-react';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { fieldRenderers } from './index.ts';

let icons: ReadonlyMap<string, LucideIcon> | undefined;
/** Each icon name a type declares, with the icon its console renderer gives (made on first use, once the registry is loaded). */
const iconsByName = (): ReadonlyMap<string, LucideIcon> =>
  (icons ??= new Map(fieldTypes.flatMap((type) => (type.icon ? [[type.icon, fieldRenderers[type.name].icon] as const] : []))));

/** True when `name` is an icon this renderer draws (every registered type's icon must be). */
export const hasFieldTypeIcon = (name: string | undefined): boolean => name !== undefined && iconsByName().has(name);

export interface FieldTypeIconProps {
  /** The icon name of the type's definition. */
  name: string | undefined;
  size?: number;
}

/** Decorative: the type's label always stands beside it. */
export function FieldTypeIcon({ name, size = 18 }: FieldTypeIconProps) {
  const Icon = (name ? iconsByName().get(name) : undefined) ?? Circle;
  return <Icon aria-hidden="true" focusable="false" size={size} />;
}
