/**
 * The address search of GeoPoint editors: `GET /api/maps?input&sessiontoken` and `?place_id`,
 * with a context so tests (and stories) can answer for the server.
 */
import { createContext, useContext } from 'react';
import type { Place as PlaceDetails, PlacePrediction as PlacePredictionWire } from '../../definitions/schemas/place.ts';
import { getApiClient, type ApiClient } from './client.ts';

/** One suggested place (Google Places' names); the console draws it without its structured parts too. */
export type PlacePrediction = Omit<PlacePredictionWire, 'structured_formatting'> & Partial<Pick<PlacePredictionWire, 'structured_formatting'>>;

/** A place and where it is, in degrees. */
export type { PlaceDetails };

export interface MapsApi {
  /** Places matching `input` (3 to 256 characters); `sessionToken` groups the searches of one pick. */
  autocomplete(input: string, sessionToken: string, signal?: AbortSignal): Promise<PlacePrediction[]>;
  place(placeId: string, sessionToken: string): Promise<PlaceDetails>;
}

export function createMapsApi(client: ApiClient): MapsApi {
  return {
    autocomplete: async (input, sessionToken, signal) =>
      (await client.json<{ predictions: PlacePrediction[] }>('api/maps', { searchParams: { input, sessiontoken: sessionToken }, ...(signal ? { signal } : {}) })).predictions,
    place: async (placeId, sessionToken) => (await client.json<{ result: PlaceDetails }>('api/maps', { searchParams: { place_id: placeId, sessiontoken: sessionToken } })).result,
  };
}

let browserMapsApi: MapsApi | null = null;

/** The maps calls over the page's client. */
export function getMapsApi(): MapsApi {
  browserMapsApi ??= createMapsApi(getApiClient());
  return browserMapsApi;
}

const MapsApiContext = createContext<MapsApi | null>(null);

/** Overrides the maps calls for a subtree (tests); without it the page's client is used. */
export const MapsApiProvider = MapsApiContext.Provider;

export function useMapsApi(): MapsApi {
  return useContext(MapsApiContext) ?? getMapsApi();
}

/** A new session token: letters and digits, made without `crypto.randomUUID` (absent outside secure contexts). */
export function newSessionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
