/**
 * Outgoing mail through nodemailer. With SMTP_URL the real server is used; without it the outbox
 * transport keeps every mail in the database (read through the Dev mailbox) and logs its link.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/index.ts';
import { outbox } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the mail is about, kept for the Dev mailbox and the log. */
  link?: string;
  /** What the mail is for (confirm, reset, …), for the Dev mailbox. */
  kind: string;
}

export interface Mailer {
  readonly transport: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
}

export function createMailer(options: { db: Db; smtpUrl: string | undefined; from: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      transport: 'smtp',
      async send(message) {
        await transporter.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      },
    };
  }
  // jsonTransport lets nodemailer build and normalise the message exactly as it would for SMTP.
  const builder = nodemailer.createTransport({ jsonTransport: true });
  return {
    transport: 'outbox',
    async send(message) {
      const info = await builder.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
      const built = JSON.parse(String(info.message)) as { subject: string; text: string };
      await options.db.insert(outbox).values({
        id: newId(),
        to: message.to,
        from: options.from,
        subject: built.subject,
        text: built.text,
        link: message.link ?? null,
        kind: message.kind,
      });
      options.log.info({ mail: message.kind, to: message.to, link: message.link }, `outbox: ${message.subject}${message.link ? ` → ${message.link}` : ''}`);
    },
  };
}
