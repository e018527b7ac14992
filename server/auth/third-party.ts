/**
 * Verifies a third-party (Google-style OpenID Connect) ID token against a configured JWKS URL,
 * issuer and audience. Only asymmetric algorithms are accepted, so `alg: none` and HMAC tokens
 * forged with a public key are refused.
 */
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { AppError, badRequest, notFound } from '../lib/errors.ts';

export interface ThirdPartyIdentity {
  subject: string;
  email: string;
  name?: string;
}

export const THIRD_PARTY_ALGORITHMS = ['RS256', 'ES256'];

export type ThirdPartyVerifier = (token: string) => Promise<ThirdPartyIdentity>;

export function createThirdPartyVerifier(options: { clientId: string; jwksUrl: string; issuer: string } | undefined): ThirdPartyVerifier {
  if (!options) {
    return async () => {
      throw notFound('third_party_disabled', 'Third-party sign-in is not configured on this server.');
    };
  }
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: options.issuer,
        audience: options.clientId,
        algorithms: THIRD_PARTY_ALGORITHMS,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const verified = payload.email_verified === true || payload.email_verified === 'true';
      if (typeof payload.email !== 'string' || !verified || typeof payload.sub !== 'string') {
        throw new Error('the token carries no verified e-mail');
      }
      return { subject: `${options.issuer}|${payload.sub}`, email: payload.email, ...(typeof payload.name === 'string' ? { name: payload.name } : {}) };
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || (error instanceof TypeError && /fetch/i.test(error.message))) {
        throw new AppError(503, 'third_party_unavailable', 'The sign-in provider could not be reached. Try again in a moment.');
      }
      throw badRequest('invalid_third_party_token', 'The sign-in token could not be verified.');
    }
  };
}
