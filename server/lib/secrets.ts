/**
 * Secrets projects store with the server (SMTP passwords, integration and function secrets),
 * encrypted with AES-256-GCM. The key is the SECRETS_KEY setting when set (then a database dump
 * alone does not reveal them: docs/mail.md "Sender settings"), else one made at first start and
 * kept in the settings table, as the signing keys are (server/auth/keys.ts).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { settings } from '../db/schema.ts';

const VERSION = 'v1';

export interface SecretBox {
  seal(plain: string): string;
  /** The plain text, or null when the key that sealed it is not this one (SECRETS_KEY changed). */
  open(sealed: string): string | null;
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('A secrets key is 32 bytes.');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** The box of this installation: SECRETS_KEY, or the key kept in the settings table (made once). */
export async function loadSecretBox(db: Db, configured: Buffer | undefined): Promise<SecretBox> {
  if (configured) return secretBox(configured);
  const key = 'project_secrets_key';
  const [existing] = await db.select().from(settings).where(eq(settings.key, key));
  if (!existing) await db.insert(settings).values({ key, value: { secret: randomBytes(32).toString('base64') } }).onConflictDoNothing();
  const [row] = existing ? [existing] : await db.select().from(settings).where(eq(settings.key, key));
  return secretBox(Buffer.from((row!.value as { secret: string }).secret, 'base64'));
}
