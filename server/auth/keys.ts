/**
 * Server secrets kept in the database so that every process of a deployment agrees on them:
 * the Ed25519 key that signs access tokens and the secret that derives rotated refresh tokens.
 * Made at first start; a concurrent first start keeps whichever row was written first.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Db } from '../db/index.ts';
import { settings } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

export const ACCESS_TOKEN_ALG = 'EdDSA';

export interface ServerKeys {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  refreshSecret: Buffer;
}

async function getOrCreate<T>(db: Db, key: string, make: () => Promise<T> | T): Promise<T> {
  const existing = await db.select().from(settings).where(eq(settings.key, key));
  if (existing[0]) return existing[0].value as T;
  await db.insert(settings).values({ key, value: await make() }).onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, key));
  return row!.value as T;
}

export async function loadServerKeys(db: Db): Promise<ServerKeys> {
  const signing = await getOrCreate(db, 'access_token_signing_key', async () => {
    const pair = await generateKeyPair(ACCESS_TOKEN_ALG, { crv: 'Ed25519', extractable: true });
    return { kid: newId(), privateJwk: await exportJWK(pair.privateKey), publicJwk: await exportJWK(pair.publicKey) };
  });
  const refresh = await getOrCreate(db, 'refresh_token_secret', () => ({ secret: randomBytes(32).toString('base64url') }));
  const sig = signing as { kid: string; privateJwk: JWK; publicJwk: JWK };
  return {
    kid: sig.kid,
    privateKey: (await importJWK(sig.privateJwk, ACCESS_TOKEN_ALG)) as CryptoKey,
    publicKey: (await importJWK(sig.publicJwk, ACCESS_TOKEN_ALG)) as CryptoKey,
    refreshSecret: Buffer.from((refresh as { secret: string }).secret, 'base64url'),
  };
}
