/** Password hashing with argon2id. A dummy hash keeps the timing of "no such user" equal to a wrong password. */
import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

// Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const options = { algorithm: 2 } as const;

export const hashPassword = (password: string) => hash(password, options);

let dummy: Promise<string> | undefined;

/** Verifies a password against a stored hash; with no hash it burns the same time and fails. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hash(randomBytes(16).toString('hex'), options);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
