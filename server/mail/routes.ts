/**
 * A project's Mail section for the console (docs/mail.md), under
 * `/api/organization/{org}/project/{proj}/mail`:
 * - `GET templates`; `GET|PUT|DELETE templates/{kind}` (DELETE: back to the default);
 *   `POST templates/{kind}/preview` (a draft with the sample values); `POST templates/{kind}/test`
 *   (the draft, or the saved template, mailed to the member: 202);
 * - `GET|PUT settings` (the SMTP password is never answered);
 * - `GET log`, `GET log/{mailID}`, `POST log/{mailID}/resend` (202).
 * Rights are definitions/mail.ts `mailRights`, checked by the request scope (server/lib/request-scope.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { mailRights } from '../../definitions/mail.ts';
import {
  MailLogDetail,
  MailLogEntry,
  MailLogPage,
  MailLogQuery,
  MailPreview,
  MailSettings,
  MailSettingsInput,
  MailTemplate,
  MailTemplateInput,
  MailTemplateKindParam,
} from '../../definitions/schemas/mail.ts';
import { currentUser } from '../auth/authenticate.ts';
import { Id } from '../content/route-schemas.ts';
import { checkedLimit } from '../auth/request-limits.ts';
import { responses } from '../lib/schemas.ts';
import type { ProjectMailService } from './project-mail.ts';

const ProjectParams = Type.Object({ org: Id, proj: Id });
const KindParams = Type.Object({ org: Id, proj: Id, kind: MailTemplateKindParam });
const MailParams = Type.Object({ org: Id, proj: Id, mailID: Type.String({ pattern: '^[0-9a-f]{24}$' }) });
/** Fastify validates a missing body as `null`: a route whose body may be left out admits it. */
const optionalBody = <T extends TObject>(schema: T) => Type.Optional(Type.Unsafe<Static<T> | null>({ ...schema, nullable: true }));

export async function projectMailRoutes(fastify: FastifyInstance, { service }: { service: ProjectMailService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['mail'];
  const security = [{ bearer: [] as string[] }];
  app.addHook('onRequest', app.requireUser);
  // Each member's own counts (docs/mail.md "Who may do what"): mails sent on request, and renders.
  const { rateLimits } = app.ctx.config;
  // Checked in the handlers, after the request scope: only calls the member may make are counted.
  const sendLimit = checkedLimit(app, rateLimits.mailSendUser, 'mail-send-user', (request) => currentUser(request).userId, 'Too many test mails and resends.');
  const previewLimit = checkedLimit(app, rateLimits.mailPreviewUser, 'mail-preview-user', (request) => currentUser(request).userId, 'Too many template previews.');

  app.get(
    '/templates',
    {
      config: { action: mailRights.read, scope: 'project' },
      schema: { summary: 'The project’s mail templates, each its own text or the default (read)', tags, security, params: ProjectParams, response: responses({ 200: Type.Array(MailTemplate) }) },
    },
    async function listTemplates(request) {
      return service.templates(request.scope.projectId);
    },
  );

  app.get(
    '/templates/:kind',
    {
      config: { action: mailRights.read, scope: 'project' },
      schema: { summary: 'One mail template (read)', tags, security, params: KindParams, response: responses({ 200: MailTemplate }) },
    },
    async function readTemplate(request) {
      return service.template(request.scope.projectId, request.params.kind);
    },
  );

  app.put(
    '/templates/:kind',
    {
      config: { action: mailRights.editTemplates, scope: 'project' },
      schema: {
        summary: 'Save the project’s own text of a template (admin); an unknown variable or a parse error is 400 mail_template_invalid naming the part',
        tags,
        security,
        params: KindParams,
        body: MailTemplateInput,
        response: responses({ 200: MailTemplate }),
      },
    },
    async function saveTemplate(request) {
      return service.saveTemplate(request.scope.projectId, request.params.kind, request.body, currentUser(request).userId);
    },
  );

  app.delete(
    '/templates/:kind',
    {
      config: { action: mailRights.editTemplates, scope: 'project' },
      schema: { summary: 'Go back to the default text of a template (admin)', tags, security, params: KindParams, response: responses({ 200: MailTemplate }) },
    },
    async function resetTemplate(request) {
      return service.resetTemplate(request.scope.projectId, request.params.kind);
    },
  );

  app.post(
    '/templates/:kind/preview',
    {
      config: { action: mailRights.read, scope: 'project' },
      schema: {
        summary: 'A draft rendered with the sample values (read); refused as saving it would be',
        tags,
        security,
        params: KindParams,
        body: MailTemplateInput,
        response: responses({ 200: MailPreview }),
      },
    },
    async function previewTemplate(request) {
      await previewLimit(request);
      return service.preview(request.params.kind, request.body);
    },
  );

  app.post(
    '/templates/:kind/test',
    {
      config: { action: mailRights.sendTest, scope: 'project' },
      schema: {
        summary: 'Mail the draft (or, without a body, the saved template) to yourself through the project’s transport (admin)',
        tags,
        security,
        params: KindParams,
        body: optionalBody(MailTemplateInput),
        response: responses({ 202: Type.Object({ to: Type.String() }) }),
      },
    },
    async function sendTest(request, reply) {
      await sendLimit(request);
      const to = request.scope.standing.email;
      await service.sendTest(request.scope.projectId, request.params.kind, request.body ?? null, to);
      return reply.code(202).send({ to });
    },
  );

  app.get(
    '/settings',
    {
      config: { action: mailRights.read, scope: 'project' },
      schema: { summary: 'The project’s sender settings, never the SMTP password (read)', tags, security, params: ProjectParams, response: responses({ 200: MailSettings }) },
    },
    async function readSettings(request) {
      return service.settings(request.scope.projectId);
    },
  );

  app.put(
    '/settings',
    {
      config: { action: mailRights.editSettings, scope: 'project' },
      schema: {
        summary: 'Change the project’s sender settings (admin): an absent key keeps its value, null clears it',
        tags,
        security,
        params: ProjectParams,
        body: MailSettingsInput,
        response: responses({ 200: MailSettings }),
      },
    },
    async function saveSettings(request) {
      return service.saveSettings(request.scope.projectId, request.body);
    },
  );

  app.get(
    '/log',
    {
      config: { action: mailRights.read, scope: 'project' },
      schema: {
        summary: 'The project’s delivery log, newest first; search by recipient or subject, filter by state or template (read)',
        tags,
        security,
        params: ProjectParams,
        querystring: MailLogQuery,
        response: responses({ 200: MailLogPage }),
      },
    },
    async function readLog(request) {
      return service.log(request.scope.projectId, request.query);
    },
  );

  app.get(
    '/log/:mailID',
    {
      config: { action: mailRights.read, scope: 'project' },
      schema: { summary: 'One mail of the delivery log with its content (read)', tags, security, params: MailParams, response: responses({ 200: MailLogDetail }) },
    },
    async function readMail(request) {
      return service.mail(request.scope.projectId, request.params.mailID);
    },
  );

  app.post(
    '/log/:mailID/resend',
    {
      config: { action: mailRights.resend, scope: 'project' },
      schema: {
        summary: 'Send a logged mail again (admin): a queued or failed one is queued again at once, a sent one is copied into a new mail',
        tags,
        security,
        params: MailParams,
        response: responses({ 202: MailLogEntry }),
      },
    },
    async function resendMail(request, reply) {
      await sendLimit(request);
      return reply.code(202).send(await service.resend(request.scope.projectId, request.params.mailID));
    },
  );
}
