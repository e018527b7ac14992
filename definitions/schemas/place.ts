/** The address search of GeoPoint editors: `GET /api/maps` (Google Places' names). */
import { Type, type Static } from '@sinclair/typebox';

/** One suggested place. */
export const PlacePrediction = Type.Object({
  place_id: Type.String(),
  /** The whole text to show: "Lyon, France". */
  description: Type.String(),
  structured_formatting: Type.Object({ main_text: Type.String(), secondary_text: Type.String() }),
});
export type PlacePrediction = Static<typeof PlacePrediction>;

/** A place with its coordinates, in degrees. */
export const Place = Type.Object({
  place_id: Type.String(),
  name: Type.String(),
  formatted_address: Type.String(),
  geometry: Type.Object({ location: Type.Object({ lat: Type.Number(), lng: Type.Number() }) }),
});
export type Place = Static<typeof Place>;
