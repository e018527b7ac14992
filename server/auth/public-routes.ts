/**
 * `/auth/public`: the authentication service for a project's own users (Bagel Auth), as the
 * official BagelDB client calls it.
 *
 * Which project: the bearer. The client sends the project API token, or — while one of the app's
 * users is signed in — that user's access token (except for `/user/token`, which always carries the
 * API token). Either names one project. A group the API token carries (not while User Admin is on)
 * goes to users it signs up; with a user's token, the API token that user signed in with counts.
 *
 * Status discipline: 401 only for a missing, invalid or expired bearer or a refused
 * refresh token; bad credentials and wrong codes are 400; a plain token at a User Admin call is
 * 403. `POST /user` answers exactly 201, `/user/token`, `/user/resetpassword` and
 * `/user/updatePassword` exactly 200. Every token answer has `user_id` and a positive `expires_in`.
 *
 * `POST /bagel-auth-reset-password/{resetID}` is the console's public reset page's call and
 * `POST /bagel-auth-verify-email/{verifyID}` its address verification page's: no bearer.
 * The routes live one file per resource in server/auth/public/.
 */
import type { FastifyInstance } from 'fastify';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { bearerToken } from './authenticate.ts';
import { currentUserRoutes } from './public/current-user.ts';
import { oneTimeCodeRoutes } from './public/one-time-codes.ts';
import { passwordRoutes, resetPageRoutes } from './public/passwords.ts';
import { publicAuthShared } from './public/shared.ts';
import { signInRoutes } from './public/sign-in.ts';
import { signUpRoutes } from './public/sign-up.ts';
import { tokenRoutes } from './public/tokens.ts';
import { verifyEmailPageRoutes } from './public/verify-email.ts';

const corsHeaders = {
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Accept-Version, Content-Type, Accept, X-Requested-With',
  'access-control-max-age': '600',
};

export async function publicAuthRoutes(fastify: FastifyInstance) {
  const { apiTokens, endUsers } = fastify.ctx;
  const shared = publicAuthShared(fastify);

  // CORS for apps in browsers: any origin, the client's headers; no cookies are used.
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', request.headers.origin ?? '*');
    reply.header('vary', 'Origin');
  });
  fastify.options('/*', async (_request, reply) => reply.code(204).headers(corsHeaders).send());

  // The console's public reset page: no bearer.
  await fastify.register(resetPageRoutes, { shared });
  await fastify.register(verifyEmailPageRoutes, { shared });

  // Everything else: the bearer names the project.
  await fastify.register(async (scope) => {
    scope.decorateRequest('authCaller', null);
    scope.addHook('onRequest', async (request) => {
      if (request.method === 'OPTIONS') return;
      const token = bearerToken(request);
      if (!token) throw unauthorized('missing_token', 'Send the project API token (or the signed-in user’s access token) as a bearer token.');
      const endUser = await endUsers.verifyAccessToken(token);
      if (endUser) {
        request.authCaller = { projectId: endUser.projectId, apiToken: null, endUser };
        return;
      }
      const apiToken = await apiTokens.verify(token);
      // A Studio token reads and writes collections in the workbench for a member; it does not
      // sign app users up or in, nor send them codes or mails (docs/studio.md "Tokens in the workbench").
      if (apiToken.studio) throw forbidden('studio_token_not_allowed', 'A Studio token calls only the collections of the public API. App users’ sign-up, sign-in and mails take one of the project’s API tokens.');
      request.authCaller = { projectId: apiToken.projectId, apiToken, endUser: null };
    });

    await scope.register(tokenRoutes);
    await scope.register(signUpRoutes, { shared });
    await scope.register(signInRoutes, { shared });
    await scope.register(currentUserRoutes);
    await scope.register(passwordRoutes, { shared });
    await scope.register(oneTimeCodeRoutes, { shared });
  });
}
