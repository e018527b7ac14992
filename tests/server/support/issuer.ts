/**
 * A local OpenID Connect issuer for third-party sign-in tests: serves its public keys as a JWKS on
 * 127.0.0.1 and signs ID tokens with them (or with keys it does not publish).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';

export const ISSUER = 'https://issuer.larder.test';
export const AUDIENCE = 'larder-test-client.apps.example';

export interface SignOptions {
  /** Which key signs: a published RS256 or ES256 key, or an RS256 key not in the JWKS. */
  key?: 'rsa' | 'ec' | 'outsider';
  /** The `kid` header; defaults to the key's own (the outsider claims the published RSA kid unless told). */
  kid?: string;
}

export async function startIssuer() {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  const outsider = await generateKeyPair('RS256', { extractable: true });
  const jwks = {
    keys: [
      { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
    ],
  };
  let jwksRequests = 0;
  const server = createServer((request, response) => {
    if (request.url === '/jwks') {
      jwksRequests += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(jwks));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const keys: Record<NonNullable<SignOptions['key']>, { key: CryptoKey; alg: string; kid: string }> = {
    rsa: { key: rsa.privateKey, alg: 'RS256', kid: 'rsa-1' },
    ec: { key: ec.privateKey, alg: 'ES256', kid: 'ec-1' },
    outsider: { key: outsider.privateKey, alg: 'RS256', kid: 'rsa-1' },
  };

  /** The claims of a good ID token for `email`; override any of them. */
  const claims = (email: string, extra: JWTPayload = {}): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: ISSUER, aud: AUDIENCE, sub: `sub-${email}`, email, email_verified: true, iat: now, exp: now + 600, ...extra };
  };

  const sign = (payload: JWTPayload, options: SignOptions = {}) => {
    const chosen = keys[options.key ?? 'rsa'];
    return new SignJWT(payload).setProtectedHeader({ alg: chosen.alg, kid: options.kid ?? chosen.kid, typ: 'JWT' }).sign(chosen.key);
  };

  return {
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    jwks,
    claims,
    sign,
    jwksRequests: () => jwksRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Issuer = Awaited<ReturnType<typeof startIssuer>>;
