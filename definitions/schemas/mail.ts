/**
 * The wire shapes of a project's Mail section (`/api/organization/{org}/project/{proj}/mail/…`;
 * docs/mail.md), shared by the server (validation, OpenAPI) and the console (static types).
 */
import { Type, type Static } from '@sinclair/typebox';
import { mailLimits, mailLogStates, mailTemplateKinds, type MailLogState, type MailTemplateKind } from '../mail.ts';
import { Nullable, StringOf } from './wire.ts';

const IsoDate = Type.String({ description: 'ISO 8601' });

export const MailTemplateKindParam = Type.Union(mailTemplateKinds.map((k) => Type.Literal(k)));

/** A template as the project uses it: its own text, or the default. */
export const MailTemplate = Type.Object(
  {
    kind: StringOf<MailTemplateKind>(),
    subject: Type.String(),
    html: Type.String(),
    text: Type.String(),
    /** The variables this template may name. */
    variables: Type.Array(Type.String()),
    /** False while the project uses the default text. */
    custom: Type.Boolean(),
    updatedDate: Nullable(IsoDate),
  },
  { $id: 'MailTemplate' },
);
export type MailTemplate = Static<typeof MailTemplate>;

/** `PUT mail/templates/{kind}`; also the body of preview and test (a draft not yet saved). */
export const MailTemplateInput = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: mailLimits.subjectMax }),
    html: Type.String({ minLength: 1, maxLength: mailLimits.htmlMax }),
    text: Type.String({ minLength: 1, maxLength: mailLimits.textMax }),
  },
  { additionalProperties: false },
);
export type MailTemplateInput = Static<typeof MailTemplateInput>;

/** A template rendered with the sample values (`POST mail/templates/{kind}/preview`). */
export const MailPreview = Type.Object({ subject: Type.String(), html: Type.String(), text: Type.String() });
export type MailPreview = Static<typeof MailPreview>;

/** The project's sender. The SMTP password is never answered: only whether one is stored. */
export const MailSettings = Type.Object(
  {
    senderName: Nullable(Type.String()),
    senderAddress: Nullable(Type.String()),
    replyTo: Nullable(Type.String()),
    /** The project's own SMTP server, without its password; null: the installation's transport. */
    smtpUrl: Nullable(Type.String()),
    smtpPasswordSet: Type.Boolean(),
    /** Mail app users who sign up with an e-mail address a link to verify it. */
    verifyOnSignup: Type.Boolean(),
    /** What delivers the project's mail now: its own SMTP server, the installation's, or the outbox (Dev mailbox). */
    transport: StringOf<'project' | 'smtp' | 'outbox'>(),
    /** The address mails come from when the project names none. */
    defaultSender: Type.String(),
  },
  { $id: 'MailSettings' },
);
export type MailSettings = Static<typeof MailSettings>;

/**
 * `PUT mail/settings`: an absent key keeps its value, null clears it. `smtpUrl` is
 * `smtp://` or `smtps://` with user and password; a URL without a password keeps the stored one
 * when user and host are unchanged.
 */
export const MailSettingsInput = Type.Object(
  {
    senderName: Type.Optional(Nullable(Type.String({ maxLength: mailLimits.senderNameMax }))),
    senderAddress: Type.Optional(Nullable(Type.String({ maxLength: mailLimits.addressMax }))),
    replyTo: Type.Optional(Nullable(Type.String({ maxLength: mailLimits.addressMax }))),
    smtpUrl: Type.Optional(Nullable(Type.String({ maxLength: mailLimits.smtpUrlMax }))),
    verifyOnSignup: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type MailSettingsInput = Static<typeof MailSettingsInput>;

/** One mail of the delivery log. */
export const MailLogEntry = Type.Object(
  {
    id: Type.String(),
    to: Type.String(),
    template: Nullable(StringOf<MailTemplateKind>()),
    subject: Type.String(),
    state: StringOf<MailLogState>(),
    /** The SMTP server's last answer when an attempt failed. */
    error: Nullable(Type.String()),
    attempts: Type.Integer(),
    createdDate: IsoDate,
    sentDate: Nullable(IsoDate),
    /** 'project': through the project's SMTP server; 'installation': the installation's transport. */
    via: StringOf<'project' | 'installation'>(),
  },
  { $id: 'MailLogEntry' },
);
export type MailLogEntry = Static<typeof MailLogEntry>;

/** One mail with its content (`GET mail/log/{mailID}`). */
export const MailLogDetail = Type.Composite([MailLogEntry, Type.Object({ text: Type.String(), html: Nullable(Type.String()), replyTo: Nullable(Type.String()), from: Type.String() })]);
export type MailLogDetail = Static<typeof MailLogDetail>;

export const MailLogQuery = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: mailLimits.searchMax, description: 'part of the recipient or the subject, case-insensitive' })),
    state: Type.Optional(Type.Union(mailLogStates.map((s) => Type.Literal(s)))),
    template: Type.Optional(MailTemplateKindParam),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: mailLimits.logPage })),
  },
  { additionalProperties: false },
);
export type MailLogQuery = Static<typeof MailLogQuery>;

export const MailLogPage = Type.Object({ mails: Type.Array(MailLogEntry), total: Type.Integer(), page: Type.Integer(), perPage: Type.Integer(), retentionDays: Type.Integer() });
export type MailLogPage = Static<typeof MailLogPage>;
