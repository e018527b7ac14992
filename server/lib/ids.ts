import { createHash, randomBytes } from 'node:crypto';

/** A new 24-character hex id (the `_id` shape BagelDB clients expect). */
export const newId = () => randomBytes(12).toString('hex');

/** A new unguessable secret for links and tokens: 256 bits, URL-safe. */
export const newSecret = () => randomBytes(32).toString('base64url');

/** The stored form of a secret. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');
