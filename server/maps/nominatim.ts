/**
 * `GEOCODER=nominatim`: address searches asked of a Nominatim server (`GEOCODER_URL`, by default
 * OpenStreetMap's public one, whose usage policy wants an identifying User-Agent and at most one
 * request a second; run your own for more). Never called by the tests' default configuration.
 *
 * The URL is the operator's configuration, not user input (what people type only goes into the
 * query string), so it may name a server on the local network; the call still has a timeout and a
 * byte cap.
 */
import { AppError } from '../lib/errors.ts';
import type { Geocoder, GeocoderConfig, Place, Prediction } from './geocoder.ts';

/** Answers above this many bytes are refused: a list of five places is a few kilobytes. */
const maxResponseBytes = 1_000_000;

interface NominatimPlace {
  osm_type?: string;
  osm_id?: number;
  lat?: string;
  lon?: string;
  name?: string;
  display_name?: string;
}

const unavailable = (detail: string) => new AppError(503, 'geocoder_unavailable', detail);

async function readJson(response: Response): Promise<unknown> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxResponseBytes) {
      await reader.cancel();
      throw unavailable('The geocoding service sent too large an answer.');
    }
    chunks.push(value);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** `osm:N123` for a node, `W` a way, `R` a relation: what `/lookup` takes back. */
const placeIdOf = (place: NominatimPlace) => {
  const type = place.osm_type?.charAt(0).toUpperCase();
  return type && 'NWR'.includes(type) && Number.isSafeInteger(place.osm_id) ? `osm:${type}${place.osm_id}` : undefined;
};

export function createNominatim(config: GeocoderConfig, userAgent: string, fetchImpl: typeof fetch = fetch): Geocoder {
  async function call(path: string, params: Record<string, string>): Promise<NominatimPlace[]> {
    const url = new URL(`${config.url}/${path}`);
    for (const [key, value] of Object.entries({ ...params, format: 'jsonv2', 'accept-language': 'en' })) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await fetchImpl(url, { headers: { 'user-agent': userAgent, accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(config.timeoutMs) });
    } catch {
      throw unavailable('The geocoding service could not be reached.');
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw unavailable(`The geocoding service answered ${response.status}.`);
    }
    let body: unknown;
    try {
      body = await readJson(response);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unavailable('The geocoding service sent an answer that is not JSON.');
    }
    return Array.isArray(body) ? (body as NominatimPlace[]) : [];
  }
  const toPlace = (found: NominatimPlace): Place | null => {
    const id = placeIdOf(found);
    const lat = Number(found.lat);
    const lng = Number(found.lon);
    if (!id || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
    const address = found.display_name ?? found.name ?? id;
    return { place_id: id, name: found.name || address, formatted_address: address, geometry: { location: { lat, lng } } };
  };
  return {
    kind: 'nominatim',
    async autocomplete(input, { limit }) {
      const found = await call('search', { q: input, limit: String(limit) });
      return found.flatMap((entry): Prediction[] => {
        const place = toPlace(entry);
        if (!place) return [];
        const [main = place.name, ...rest] = place.formatted_address.split(', ');
        return [{ place_id: place.place_id, description: place.formatted_address, structured_formatting: { main_text: main, secondary_text: rest.join(', ') } }];
      });
    },
    async place(placeId) {
      const match = /^osm:([NWR]\d{1,19})$/.exec(placeId);
      if (!match) return null;
      const [found] = await call('lookup', { osm_ids: match[1]! });
      return found ? toPlace(found) : null;
    },
  };
}
