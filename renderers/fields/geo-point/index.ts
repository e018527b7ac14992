/** How the console draws GeoPoint fields. */
import { MapPin } from 'lucide-react';
import type { FieldRenderer } from '../field-renderer.ts';
import { GeoPointDisplay } from './Display.tsx';
import { GeoPointEditor } from './Editor.tsx';

export const geoPointRenderer: FieldRenderer = {
  Editor: GeoPointEditor,
  Display: GeoPointDisplay,
  icon: MapPin,
  columnWidth: 200,
  fullWidth: true,
};
