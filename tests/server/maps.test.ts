/**
 * GET /api/maps: the offline gazetteer (prefix search without case or accents, population order,
 * country narrowing, place_id round trip, loaded on first use), bad input, sign-in, the tile
 * setting in /api/config, and the Nominatim switch against a local stand-in (never the internet).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gazetteerLoaded } from '../../server/maps/gazetteer.ts';
import { loadMapsConfig, tileSource } from '../../server/maps/geocoder.ts';
import { expectProblem } from './support/assertions.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

interface Predictions {
  status: string;
  predictions: { place_id: string; description: string; structured_formatting: { main_text: string; secondary_text: string } }[];
}

describe.each(databaseKinds)('maps on %s', (kind) => {
  let t: TestApp;
  let access: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    access = (await verifiedUser(t.app, 'maps')).tokens.access_token;
  });
  afterAll(() => t.close());

  const get = (query: string, token: string | null = access) =>
    t.app.inject({ method: 'GET', url: `/api/maps?${query}`, headers: token ? bearer(token) : {} });
  const search = async (input: string) => {
    const response = await get(new URLSearchParams({ input, sessiontoken: 'session-1' }).toString());
    expect(response.statusCode, response.body).toBe(200);
    return json<Predictions>(response);
  };
  const descriptions = async (input: string) => (await search(input)).predictions.map((p) => p.description);

  it('needs a signed-in user', async () => {
    expectProblem(await get('input=Lyon', null), 401, 'missing_token');
    expectProblem(await get('input=Lyon', 'not-a-token'), 401);
  });

  it('reads the gazetteer only on the first search', async () => {
    // The worker's module is fresh for this file; the app above has started without reading it.
    if (kind === databaseKinds[0]) expect(gazetteerLoaded()).toBe(false);
    await search('Lyon');
    expect(gazetteerLoaded()).toBe(true);
  });

  it('finds cities by a prefix of their name, most populous first, at most five', async () => {
    const lyon = await search('Lyon');
    expect(lyon.status).toBe('OK');
    expect(lyon.predictions[0]).toEqual({
      place_id: 'city:2996944',
      description: 'Lyon, France',
      structured_formatting: { main_text: 'Lyon', secondary_text: 'France' },
    });
    expect(await descriptions('lyo')).toContain('Lyon, France');
    expect(await descriptions('springfield')).toEqual([
      'Springfield, MO, United States of America',
      'Springfield, MA, United States of America',
      'Springfield, IL, United States of America',
      'Springfield, OR, United States of America',
      'Springfield, OH, United States of America',
    ]);
    const san = await descriptions('san');
    expect(san).toHaveLength(5);
    expect(san[0]).toBe('Santiago, Chile');
  });

  it('ignores case, accents and punctuation, both ways', async () => {
    expect((await descriptions('MONTREAL'))[0]).toBe('Montréal, Canada');
    expect((await descriptions('zur'))[0]).toBe('Zürich, ZH, Switzerland');
    expect((await descriptions('saint etienne'))[0]).toBe('Saint-Étienne, France');
    expect((await descriptions('Saint-Étienne'))[0]).toBe('Saint-Étienne, France');
    expect((await descriptions('krakow'))[0]).toBe('Kraków, Poland');
    expect((await descriptions('São'))[0]).toBe('São Paulo, Brazil');
  });

  it('narrows by country or region after a comma', async () => {
    expect(await descriptions('springfield, il')).toEqual(['Springfield, IL, United States of America']);
    const paris = await descriptions('Paris, united');
    expect(paris[0]).toBe('Paris, TX, United States of America');
    expect(paris.every((d) => d.endsWith('United States of America'))).toBe(true);
    expect((await descriptions('paris, fr'))[0]).toBe('Paris, France');
  });

  it('answers ZERO_RESULTS when nothing matches', async () => {
    expect(await search('zzqxw')).toEqual({ status: 'ZERO_RESULTS', predictions: [] });
  });

  it('gives the place of a prediction with its coordinates', async () => {
    const [first] = (await search('lyon')).predictions;
    const response = await get(`place_id=${encodeURIComponent(first!.place_id)}&sessiontoken=session-1`);
    expect(response.statusCode, response.body).toBe(200);
    const { status, result } = json(response);
    expect(status).toBe('OK');
    expect(result).toMatchObject({ place_id: first!.place_id, name: 'Lyon', formatted_address: first!.description });
    expect(result.geometry.location.lat).toBeCloseTo(45.748, 2);
    expect(result.geometry.location.lng).toBeCloseTo(4.847, 2);
  });

  it('refuses searches under 3 or over 256 characters with a clear problem', async () => {
    const short = expectProblem(await get('input=ly'), 400, 'search_too_short');
    expect(short.detail).toBe('An address search needs at least 3 characters.');
    expect(json(await get('input=ly')).errors).toEqual([{ path: 'querystring.input', message: short.detail }]);
    // Spaces around do not count; three letters with accents do.
    expectProblem(await get(`input=${encodeURIComponent('  ly  ')}`), 400, 'search_too_short');
    expect((await search('Évr')).status).toBe('OK');
    const long = expectProblem(await get(`input=${'a'.repeat(300)}`), 400, 'search_too_long');
    expect(long.detail).toBe('An address search holds at most 256 characters.');
    expect((await get(`input=${'a'.repeat(256)}`)).statusCode).toBe(200);
    expectProblem(await get('sessiontoken=x'), 400, 'invalid_query');
    expectProblem(await get('input=Lyon&place_id=city:2996944'), 400, 'invalid_query');
    expectProblem(await get(`place_id=${'x'.repeat(300)}`), 400, 'validation_failed');
  });

  it('answers 404 for a place_id it never gave', async () => {
    for (const id of ['city:999999999', 'city:', 'city:12a', 'osm:N1', 'nope', '']) {
      expectProblem(await get(`place_id=${encodeURIComponent(id)}`), 404, 'place_not_found');
    }
  });

  it('tells the console no tile layer is set', async () => {
    expect(json(await t.app.inject({ method: 'GET', url: '/api/config' })).mapTiles).toBeNull();
  });
});

describe('maps settings', () => {
  it('reads the geocoder and tile switches, refusing bad ones', () => {
    expect(loadMapsConfig({})).toEqual({
      geocoder: { kind: 'gazetteer', url: 'https://nominatim.openstreetmap.org', timeoutMs: 5000 },
      tileUrl: undefined,
      tileAttribution: undefined,
    });
    expect(() => loadMapsConfig({ GEOCODER: 'google' })).toThrow(/GEOCODER/);
    expect(() => loadMapsConfig({ MAP_TILE_URL: 'https://tiles.example.org/tile.png' })).toThrow(/MAP_TILE_URL/);
    expect(() => loadMapsConfig({ MAP_TILE_URL: 'javascript:alert(1)//{z}{x}{y}' })).toThrow(/MAP_TILE_URL/);
    expect(tileSource('https://{s}.tile.example.org/{z}/{x}/{y}.png')).toBe('https://*.tile.example.org');
    expect(tileSource('http://127.0.0.1:8081/{z}/{x}/{y}.png')).toBe('http://127.0.0.1:8081');
    expect(tileSource(undefined)).toBeUndefined();
  });

  it('gives the console the tile layer when one is set', async () => {
    const t = await createTestApp('pglite', { MAP_TILE_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: '© Example' });
    try {
      expect(json(await t.app.inject({ method: 'GET', url: '/api/config' })).mapTiles).toEqual({
        url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png',
        attribution: '© Example',
      });
    } finally {
      await t.close();
    }
  });
});

describe('GEOCODER=nominatim', () => {
  let server: Server;
  let seen: URL[] = [];
  let agents: (string | undefined)[] = [];
  let reply: (url: URL) => { status: number; body: string } = () => ({ status: 200, body: '[]' });
  let t: TestApp;
  let access: string;
  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response) => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      seen.push(url);
      agents.push(request.headers['user-agent']);
      const { status, body } = reply(url);
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    t = await createTestApp('pglite', { GEOCODER: 'nominatim', GEOCODER_URL: `http://127.0.0.1:${port}/nominatim/`, GEOCODER_TIMEOUT_MS: '2000' });
    access = (await verifiedUser(t.app, 'nomi')).tokens.access_token;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/maps?${query}`, headers: bearer(access) });
  const lyon = { osm_type: 'relation', osm_id: 120965, lat: '45.7578137', lon: '4.8320114', name: 'Lyon', display_name: 'Lyon, Métropole de Lyon, France' };

  it('asks the configured server and hands out its places in the same shape', async () => {
    seen = [];
    agents = [];
    reply = () => ({ status: 200, body: JSON.stringify([lyon, { osm_type: 'node', osm_id: 1, lat: 'x', lon: '1' }]) });
    const response = await get('input=Lyon&sessiontoken=abc');
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toEqual({
      status: 'OK',
      predictions: [
        { place_id: 'osm:R120965', description: 'Lyon, Métropole de Lyon, France', structured_formatting: { main_text: 'Lyon', secondary_text: 'Métropole de Lyon, France' } },
      ],
    });
    expect(seen[0]!.pathname).toBe('/nominatim/search');
    expect(Object.fromEntries(seen[0]!.searchParams)).toMatchObject({ q: 'Lyon', limit: '5', format: 'jsonv2' });
    expect(agents[0]).toMatch(/^Larder geocoding \(http:\/\/larder\.test\)$/);

    reply = (url) => ({ status: 200, body: JSON.stringify(url.searchParams.get('osm_ids') === 'R120965' ? [lyon] : []) });
    const place = await get('place_id=osm:R120965');
    expect(json(place)).toEqual({
      status: 'OK',
      result: { place_id: 'osm:R120965', name: 'Lyon', formatted_address: 'Lyon, Métropole de Lyon, France', geometry: { location: { lat: 45.7578137, lng: 4.8320114 } } },
    });
    expectProblem(await get('place_id=osm:N42'), 404, 'place_not_found');
    expectProblem(await get('place_id=city:2996944'), 404, 'place_not_found');
  });

  it('answers 503 when the server fails, and still refuses short searches without asking it', async () => {
    reply = () => ({ status: 500, body: 'oops' });
    expectProblem(await get('input=Lyon'), 503, 'geocoder_unavailable');
    reply = () => ({ status: 200, body: 'not json' });
    expectProblem(await get('input=Lyon'), 503, 'geocoder_unavailable');
    reply = () => ({ status: 200, body: JSON.stringify(Array.from({ length: 20_000 }, () => lyon)) });
    expectProblem(await get('input=Lyon'), 503, 'geocoder_unavailable');
    seen = [];
    expectProblem(await get('input=Ly'), 400, 'search_too_short');
    expect(seen).toEqual([]);
  });
});

describe.each(databaseKinds)('maps rate limit on %s', (kind) => {
  it('limits each signed-in user on their own, with a Retry-After', async () => {
    const t = await createTestApp(kind, { RATE_LIMIT_MAPS_USER: '2/1m' });
    try {
      const first = (await verifiedUser(t.app, 'maps-limit-a')).tokens.access_token;
      const second = (await verifiedUser(t.app, 'maps-limit-b')).tokens.access_token;
      const get = (token: string) => t.app.inject({ method: 'GET', url: '/api/maps?input=Lyon', headers: bearer(token) });
      expect((await get(first)).statusCode).toBe(200);
      expect((await get(first)).statusCode).toBe(200);
      const refused = await get(first);
      expectProblem(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await get(second)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
