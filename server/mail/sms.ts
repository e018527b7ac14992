/**
 * Text messages (one-time codes for project users). A provider is one `send` call; the default
 * keeps every message in the outbox table as a `kept` row of kind `sms`, where the Dev mailbox
 * shows it — never handed to SMTP, since a phone number is not a mailbox. A real SMS gateway
 * is a provider passed to `buildApp`.
 */
import type { Db } from '../db/index.ts';
import { outbox } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

export interface SmsMessage {
  /** The phone number, as the user gave it (digits, optionally a leading +). */
  to: string;
  text: string;
}

export interface SmsProvider {
  send(message: SmsMessage): Promise<void>;
}

/** The default: the message is kept for the Dev mailbox. */
export function devMailboxSms(db: Db, from: string): SmsProvider {
  return {
    async send(message) {
      const subject = message.text.length > 60 ? `${message.text.slice(0, 59)}…` : message.text;
      await db.insert(outbox).values({ id: newId(), to: message.to, from, subject, text: message.text, kind: 'sms', status: 'kept', link: null });
    },
  };
}
