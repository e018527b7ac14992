/**
 * Typed calls of a project's Mail section (docs/mail.md): templates (read, save, back to the
 * default, preview a draft, send a test), sender settings, the delivery log and a mail's resend, and
 * the public call of an app user's verification link. Shapes from definitions/schemas/mail.ts. All
 * reject with ApiError.
 */
import type { MailTemplateKind } from '../../definitions/mail.ts';
import type {
  MailLogDetail,
  MailLogEntry,
  MailLogPage,
  MailLogQuery,
  MailPreview,
  MailSettings,
  MailSettingsInput,
  MailTemplate,
  MailTemplateInput,
} from '../../definitions/schemas/mail.ts';
import { getApiClient, type ApiClient } from './client.ts';
import { anonymous } from './token-grants.ts';

export type { MailLogDetail, MailLogEntry, MailLogPage, MailLogQuery, MailPreview, MailSettings, MailSettingsInput, MailTemplate, MailTemplateInput };

/** The project a call is made in. */
export interface MailScope {
  organizationID: string;
  projectID: string;
}

/** What the public verification call answers: the project's name when the server sends it. */
export interface VerifiedEmail {
  project: string | null;
}

export interface MailApi {
  templates(scope: MailScope): Promise<MailTemplate[]>;
  template(scope: MailScope, kind: MailTemplateKind): Promise<MailTemplate>;
  saveTemplate(scope: MailScope, kind: MailTemplateKind, input: MailTemplateInput): Promise<MailTemplate>;
  /** Back to the default text; answers the template as it now is. */
  resetTemplate(scope: MailScope, kind: MailTemplateKind): Promise<MailTemplate | undefined>;
  preview(scope: MailScope, kind: MailTemplateKind, draft: MailTemplateInput, signal?: AbortSignal): Promise<MailPreview>;
  /** Sends the draft to the signed-in member's own address (202). */
  sendTest(scope: MailScope, kind: MailTemplateKind, draft: MailTemplateInput): Promise<void>;
  settings(scope: MailScope): Promise<MailSettings>;
  saveSettings(scope: MailScope, input: MailSettingsInput): Promise<MailSettings>;
  log(scope: MailScope, query: MailLogQuery): Promise<MailLogPage>;
  mail(scope: MailScope, mailID: string): Promise<MailLogDetail>;
  resend(scope: MailScope, mailID: string): Promise<void>;
  /** Public (no sign-in): confirms the address an app user's verification link was sent to. */
  verifyEmail(verifyID: string): Promise<VerifiedEmail>;
}

const seg = encodeURIComponent;
const mailPath = (scope: MailScope) => `api/organization/${seg(scope.organizationID)}/project/${seg(scope.projectID)}/mail`;

/** Every path of these calls (relative to the console's origin). */
export const mailPaths = {
  templates: (scope: MailScope) => `${mailPath(scope)}/templates`,
  template: (scope: MailScope, kind: MailTemplateKind) => `${mailPath(scope)}/templates/${seg(kind)}`,
  preview: (scope: MailScope, kind: MailTemplateKind) => `${mailPath(scope)}/templates/${seg(kind)}/preview`,
  test: (scope: MailScope, kind: MailTemplateKind) => `${mailPath(scope)}/templates/${seg(kind)}/test`,
  settings: (scope: MailScope) => `${mailPath(scope)}/settings`,
  log: (scope: MailScope) => `${mailPath(scope)}/log`,
  mail: (scope: MailScope, mailID: string) => `${mailPath(scope)}/log/${seg(mailID)}`,
  resend: (scope: MailScope, mailID: string) => `${mailPath(scope)}/log/${seg(mailID)}/resend`,
  verifyEmail: (verifyID: string) => `auth/public/bagel-auth-verify-email/${seg(verifyID)}`,
};

/** Query values as the server reads them: absent and empty ones left out. */
function params(query: object): Record<string, string | number> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as Record<string, string | number>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function createMailApi(client: ApiClient): MailApi {
  const { json } = client;
  return {
    templates: (scope) => json<MailTemplate[]>(mailPaths.templates(scope)),
    template: (scope, kind) => json<MailTemplate>(mailPaths.template(scope, kind)),
    saveTemplate: (scope, kind, input) => json<MailTemplate>(mailPaths.template(scope, kind), { method: 'put', json: input }),
    resetTemplate: (scope, kind) => json<MailTemplate | undefined>(mailPaths.template(scope, kind), { method: 'delete' }),
    preview: (scope, kind, draft, signal) => json<MailPreview>(mailPaths.preview(scope, kind), { method: 'post', json: draft, ...(signal ? { signal } : {}) }),
    sendTest: async (scope, kind, draft) => {
      await json<unknown>(mailPaths.test(scope, kind), { method: 'post', json: draft });
    },
    settings: (scope) => json<MailSettings>(mailPaths.settings(scope)),
    saveSettings: (scope, input) => json<MailSettings>(mailPaths.settings(scope), { method: 'put', json: input }),
    log: (scope, query) => json<MailLogPage>(mailPaths.log(scope), { searchParams: params(query) }),
    mail: (scope, mailID) => json<MailLogDetail>(mailPaths.mail(scope, mailID)),
    resend: async (scope, mailID) => {
      await json<unknown>(mailPaths.resend(scope, mailID), { method: 'post' });
    },
    verifyEmail: async (verifyID) => {
      const body = await json<unknown>(mailPaths.verifyEmail(verifyID), { method: 'post', context: anonymous });
      const name = isRecord(body) ? (body.project ?? body.projectName ?? body.name) : null;
      return { project: typeof name === 'string' && name !== '' ? name : null };
    },
  };
}

let browserMailApi: MailApi | null = null;

/** These calls over the page's client. */
export function getMailApi(): MailApi {
  browserMailApi ??= createMailApi(getApiClient());
  return browserMailApi;
}
