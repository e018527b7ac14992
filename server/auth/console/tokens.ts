/** `POST /auth/token`: the console's token grants, password (form-encoded) and refresh (query or form), as OAuth 2 has them. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { TokenResponse } from '../../../definitions/schemas/token-response.ts';
import { badRequest } from '../../lib/errors.ts';
import { responses } from '../../lib/schemas.ts';
import { bodyLimit, optionalBody, short, tags, type ConsoleAuth } from './shared.ts';

const TokenParams = Type.Object(
  {
    grant_type: short(64),
    username: short(254),
    password: short(256),
    client_id: short(128),
    client_secret: short(256),
    refresh_token: short(128),
  },
  { additionalProperties: true },
);
type TokenParams = Static<typeof TokenParams>;

export async function tokenRoutes(fastify: FastifyInstance, { shared }: { shared: ConsoleAuth }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, users, tokens } = app.ctx;

  const clientOf = (params: TokenParams) => {
    const { id, secret } = config.consoleClient;
    if (params.client_id !== id || params.client_secret !== secret) {
      throw badRequest('invalid_client', 'Unknown client or wrong client secret.');
    }
    return id;
  };

  app.post(
    '/token',
    {
      bodyLimit,
      schema: {
        summary: 'Get tokens: password grant (form-encoded) or refresh grant (query or form)',
        tags,
        // The query is merged into the parameters, so it is held to the same limits as the form.
        querystring: TokenParams,
        body: optionalBody(TokenParams),
        response: responses({ 200: TokenResponse }),
      },
    },
    async function tokenGrant(request, reply) {
      const params: TokenParams = { ...request.query, ...(request.body ?? {}) };
      reply.header('cache-control', 'no-store');
      switch (params.grant_type) {
        case 'password': {
          const clientId = clientOf(params);
          if (!params.username || !params.password) throw badRequest('invalid_request', 'Username and password are required.');
          // A password in the URL ends up in access logs and browser history.
          if ((request.query as Record<string, unknown>).password !== undefined) {
            throw badRequest('invalid_request', 'Send the password in the request body, never in the URL.');
          }
          await shared.loginByAddress(request);
          // The account a sign-in names, resolved to the user when there is one, so that trying a
          // username and then its e-mail counts against one limit, not two.
          const attempt = await shared.loginLimits.begin(await users.accountKey(params.username), shared.address(request));
          const pair = await users.signIn(params.username, params.password, clientId);
          await attempt.succeeded();
          return pair;
        }
        case 'refresh_token': {
          if (!params.refresh_token) throw badRequest('invalid_request', 'The refresh_token parameter is required.');
          return tokens.refresh(params.refresh_token);
        }
        case undefined:
        case '':
          throw badRequest('invalid_request', 'The grant_type parameter is required.');
        default:
          throw badRequest('unsupported_grant_type', `The grant type "${params.grant_type}" is not supported.`, { grantType: String(params.grant_type) });
      }
    },
  );
}
