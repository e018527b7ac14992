/**
 * The mails a project's app users receive, as data (docs/mail.md): each template's kind, the
 * variables it may use, its default text and the sample values of its preview. Templates are
 * Liquid (liquidjs) with HTML escaping on by default; the server renders them, the console edits
 * and previews them through the server.
 */

export const mailTemplateKinds = ['verification', 'reset', 'otp'] as const;
export type MailTemplateKind = (typeof mailTemplateKinds)[number];

/** The outbox `kind` each template's mails carry (the Dev mailbox and the log show it). */
export const mailKindOfTemplate: Readonly<Record<MailTemplateKind, string>> = {
  verification: 'project-user-verification',
  reset: 'project-user-reset',
  otp: 'project-user-otp',
};

/** Every variable a template may name; a name not listed for its kind is refused when saved. */
export const mailTemplateVariables: Readonly<Record<MailTemplateKind, readonly string[]>> = {
  verification: ['email', 'link', 'project', 'hours'],
  reset: ['email', 'link', 'project', 'minutes'],
  otp: ['email', 'code', 'project', 'minutes'],
};

/** Values the preview and "send a test to me" fill in (the test mail's `email` is the member's). */
export const mailSampleValues: Readonly<Record<string, string | number>> = {
  email: 'ada@example.com',
  link: 'https://larder.example/bagel-auth-verify-email/sample',
  project: 'Recipes',
  code: '482913',
  minutes: 30,
  hours: 24,
};

export interface MailTemplateText {
  subject: string;
  html: string;
  text: string;
}

const paragraph = 'style="margin:0 0 16px;font:16px/1.5 system-ui,sans-serif;color:#1f2328"';
const button =
  'style="display:inline-block;padding:10px 18px;border-radius:6px;background:#2f6f4f;color:#ffffff;text-decoration:none;font:600 16px system-ui,sans-serif"';

/** The text a project starts with: plain, short, and saying why the mail came. */
export const defaultMailTemplates: Readonly<Record<MailTemplateKind, MailTemplateText>> = {
  verification: {
    subject: 'Confirm your e-mail address for {{ project }}',
    html: [
      `<p ${paragraph}>Hello,</p>`,
      `<p ${paragraph}>Confirm that {{ email }} is your e-mail address for {{ project }}:</p>`,
      `<p ${paragraph}><a href="{{ link }}" ${button}>Confirm my address</a></p>`,
      `<p ${paragraph}>The link works once and expires in {{ hours }} hours. If you did not sign up for {{ project }}, ignore this mail.</p>`,
    ].join('\n'),
    text: 'Hello,\n\nConfirm that {{ email }} is your e-mail address for {{ project }} by opening this link:\n\n{{ link }}\n\nThe link works once and expires in {{ hours }} hours. If you did not sign up for {{ project }}, ignore this mail.',
  },
  reset: {
    subject: 'Reset your password for {{ project }}',
    html: [
      `<p ${paragraph}>Hello,</p>`,
      `<p ${paragraph}>Choose a new password for {{ project }}:</p>`,
      `<p ${paragraph}><a href="{{ link }}" ${button}>Choose a new password</a></p>`,
      `<p ${paragraph}>The link works once and expires in {{ minutes }} minutes. Every device signed in with your account will be signed out. If you did not ask for this, ignore this mail.</p>`,
    ].join('\n'),
    text: 'Hello,\n\nOpen this link to choose a new password for {{ project }}:\n\n{{ link }}\n\nThe link works once and expires in {{ minutes }} minutes. Every device signed in with your account will be signed out. If you did not ask for this, ignore this mail.',
  },
  otp: {
    subject: 'Your sign-in code for {{ project }}',
    html: [
      `<p ${paragraph}>Hello,</p>`,
      `<p ${paragraph}>Your sign-in code for {{ project }} is</p>`,
      `<p style="margin:0 0 16px;font:700 28px/1.2 ui-monospace,monospace;letter-spacing:4px;color:#1f2328">{{ code }}</p>`,
      `<p ${paragraph}>It expires in {{ minutes }} minutes. If you did not ask for it, ignore this mail.</p>`,
    ].join('\n'),
    text: 'Hello,\n\nYour sign-in code for {{ project }} is {{ code }}. It expires in {{ minutes }} minutes. If you did not ask for it, ignore this mail.',
  },
};

/** The delivery log's states: queued (an attempt is due), sent (or kept in the outbox), failed (gave up). */
export const mailLogStates = ['queued', 'sent', 'failed'] as const;
export type MailLogState = (typeof mailLogStates)[number];

export const mailLimits = {
  subjectMax: 300,
  htmlMax: 100_000,
  textMax: 50_000,
  senderNameMax: 200,
  addressMax: 320,
  smtpUrlMax: 2048,
  /** Log entries per page. */
  logPage: 50,
  searchMax: 200,
  /** How long an app user's verification link works. */
  verificationTtlHours: 24,
} as const;

/**
 * Who may do what in Mail and Studio (the server enforces it, the console mirrors it), as
 * organization member actions of definitions/permissions.ts: every member reads the log,
 * templates and settings (never the SMTP password) and runs reads in Studio; admins edit
 * templates and sender settings, resend and send tests; a member runs a write in Studio only with
 * a token that carries it and only when their own flags allow that write.
 */
export const mailRights = {
  read: 'read',
  editTemplates: 'admin',
  editSettings: 'admin',
  resend: 'admin',
  sendTest: 'admin',
} as const;
