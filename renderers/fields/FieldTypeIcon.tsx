/**
 * The icon a field type declares in its definition folder (`icon: 'map-pin'`), drawn with
 * lucide. Looked up by the icon's name, never by the type; a name nobody drew gets a neutral shape.
 */
import {
  Braces,
  Calendar,
  Circle,
  FileText,
  FolderTree,
  Globe,
  Hash,
  Image,
  Images,
  Info,
  Link2,
  List,
  MapPin,
  Phone,
  ToggleLeft,
  Type,
  type LucideIcon,
} from 'lucide-react';

const icons: Readonly<Record<string, LucideIcon>> = {
  braces: Braces,
  calendar: Calendar,
  'file-text': FileText,
  'folder-tree': FolderTree,
  globe: Globe,
  hash: Hash,
  image: Image,
  images: Images,
  info: Info,
  'link-2': Link2,
  list: List,
  'map-pin': MapPin,
  phone: Phone,
  'toggle-left': ToggleLeft,
  type: Type,
};

/** True when `name` is an icon this renderer draws (every registered type's icon must be). */
export const hasFieldTypeIcon = (name: string | undefined): boolean => name !== undefined && Object.prototype.hasOwnProperty.call(icons, name);

export interface FieldTypeIconProps {
  /** The icon name of the type's definition. */
  name: string | undefined;
  size?: number;
}

/** Decorative: the type's label always stands beside it. */
export function FieldTypeIcon({ name, size = 18 }: FieldTypeIconProps) {
  const Icon = (name ? icons[name] : undefined) ?? Circle;
  return <Icon aria-hidden="true" focusable="false" size={size} />;
}
