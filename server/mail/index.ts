/**
 * Projects' mail (docs/mail.md): the service behind the Mail section, the worker that delivers
 * through projects' own SMTP servers, the delivery log's retention sweep, and the templates the
 * app users' mails (server/auth/end-users.ts) are written with.
 */
import type { FastifyInstance } from 'fastify';
import { ProjectDelivery } from './project-delivery.ts';
import { ProjectMailService } from './project-mail.ts';
import { projectMailRoutes } from './routes.ts';

declare module '../app.ts' {
  interface AppContext {
    /** A project's mail templates, sender settings and delivery log (server/mail); set once registered. */
    projectMail?: ProjectMailService;
  }
}

/** How often the delivery log's retention sweep runs (it runs at start too). */
const SWEEP_EVERY_MS = 3_600_000;

export async function registerProjectMail(app: FastifyInstance): Promise<void> {
  const { config, database, mailer, outbound } = app.ctx;
  const box = app.ctx.secrets;
  const delivery = new ProjectDelivery({ db: database.db, box, log: app.log, outbound, fallback: mailer.transport });
  const service = new ProjectMailService({ db: database.db, config, mailer, delivery, box, outbound, log: app.log });
  app.ctx.projectMail = service;
  app.ctx.endUsers.useProjectMail(service);

  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = service.sweep().catch((error) => app.log.error({ err: error }, 'mail log sweep failed'));
  };
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  sweep();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sweeping;
    await delivery.close();
  });

  await app.register(projectMailRoutes, { prefix: '/api/organization/:org/project/:proj/mail', service });
}
