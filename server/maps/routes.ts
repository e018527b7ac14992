/**
 * `GET /api/maps`: `?input=…&sessiontoken=…` suggests places for an address search,
 * `?place_id=…` gives one place with its coordinates. For signed-in console users, like the rest of
 * the console's API. Searches of fewer than 3 or more than 256 characters are refused with a 400.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { maps } from '../../definitions/constants.ts';
import { characterCount } from '../../definitions/field-types/support.ts';
import { AppError, notFound } from '../lib/errors.ts';
import type { ProblemCodeOf, ProblemParamsArg } from '../../definitions/problems.ts';
import { routeRateLimit } from '../lib/rate-limit.ts';
import { responses } from '../lib/schemas.ts';
import { createGazetteer } from './gazetteer.ts';
import type { Geocoder, MapsConfig } from './geocoder.ts';
import { Place, PlacePrediction } from '../../definitions/schemas/place.ts';
import { createNominatim } from './nominatim.ts';

/** The geocoder the configuration asks for. */
export function createGeocoder(config: MapsConfig, publicUrl: string): Geocoder {
  if (config.geocoder.kind === 'nominatim') return createNominatim(config.geocoder, `Larder geocoding (${publicUrl})`);
  return createGazetteer();
}

const badQuery = <C extends ProblemCodeOf<400>>(code: C, path: string, detail: string, ...params: ProblemParamsArg<C>) =>
  new AppError(400, code, detail, { errors: [{ path, message: detail }], ...(params[0] ? { params: params[0] } : {}) });

export async function mapsRoutes(fastify: FastifyInstance, options: { geocoder?: Geocoder }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = app.ctx;
  const geocoder = options.geocoder ?? createGeocoder(config.maps, config.publicUrl);
  app.addHook('onRequest', app.requireUser);
  // Per user, so one person's typing cannot exhaust a real provider's quota for everyone.
  const limit = routeRateLimit(app, config.rateLimits.mapsUser, (request) => `maps-user:${request.auth?.userId ?? request.ip}`, 'Too many address searches.');

  app.get(
    '/maps',
    {
      onRequest: limit,
      schema: {
        summary: 'Address search (input) or one place with its coordinates (place_id)',
        tags: ['maps'],
        security: [{ bearer: [] }],
        querystring: Type.Object({
          input: Type.Optional(Type.String({ description: `What was typed: ${maps.searchMinChars} to ${maps.searchMaxChars} characters` })),
          sessiontoken: Type.Optional(Type.String({ maxLength: 256, description: 'Groups the searches of one pick (passed to providers that use it)' })),
          place_id: Type.Optional(Type.String({ maxLength: 256 })),
        }),
        response: responses({
          200: Type.Union([
            Type.Object({ status: Type.Union([Type.Literal('OK'), Type.Literal('ZERO_RESULTS')]), predictions: Type.Array(PlacePrediction) }),
            Type.Object({ status: Type.Literal('OK'), result: Place }),
          ]),
        }),
      },
    },
    async (request) => {
      const { input, place_id: placeId, sessiontoken: sessionToken } = request.query;
      if (input !== undefined && placeId !== undefined) {
        throw badQuery('invalid_query', 'querystring', 'Send either input (an address search) or place_id, not both.');
      }
      if (placeId !== undefined) {
        const place = placeId.trim() === '' ? null : await geocoder.place(placeId, { sessionToken });
        if (!place) throw notFound('place_not_found', 'No place has this place_id.');
        return { status: 'OK' as const, result: place };
      }
      if (input === undefined) throw badQuery('invalid_query', 'querystring', 'Send input (an address search) or place_id.');
      const text = input.trim();
      if (characterCount(text) < maps.searchMinChars) {
        throw badQuery('search_too_short', 'querystring.input', `An address search needs at least ${maps.searchMinChars} characters.`, { min: maps.searchMinChars });
      }
      if (characterCount(text) > maps.searchMaxChars) {
        throw badQuery('search_too_long', 'querystring.input', `An address search holds at most ${maps.searchMaxChars} characters.`, { max: maps.searchMaxChars });
      }
      const predictions = await geocoder.autocomplete(text, { limit: maps.predictionsMax, sessionToken });
      return { status: predictions.length ? ('OK' as const) : ('ZERO_RESULTS' as const), predictions };
    },
  );
}
