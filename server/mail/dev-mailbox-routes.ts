/**
 * The Dev mailbox: read the outbox from the console while no SMTP server is configured.
 * Registered only with the outbox transport and unless DEV_MAILBOX=0; answers only loopback
 * clients (the socket's address, never a forwarded header), and 404 to everyone else.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import ipaddr from 'ipaddr.js';
import { desc, eq } from 'drizzle-orm';
import { outbox } from '../db/schema.ts';
import { notFound } from '../lib/errors.ts';
import { Empty, responses } from '../lib/schemas.ts';

export function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'loopback';
}

const Mail = Type.Object({
  id: Type.String(),
  to: Type.String(),
  from: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  link: Type.Union([Type.String(), Type.Null()]),
  kind: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

const toWire = (row: typeof outbox.$inferSelect) => ({
  id: row.id,
  to: row.to,
  from: row.from,
  subject: row.subject,
  text: row.text,
  link: row.link,
  kind: row.kind,
  createdAt: row.createdAt.toISOString(),
});

export async function devMailboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx.database;

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!isLoopback(request.socket.remoteAddress)) throw notFound('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`);
  });

  app.get(
    '/',
    {
      schema: {
        summary: 'Mails kept by the outbox transport, newest first (loopback only)',
        tags: ['dev'],
        querystring: Type.Object({
          to: Type.Optional(Type.String({ maxLength: 254 })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
        }),
        response: responses({ 200: Type.Object({ mails: Type.Array(Mail) }) }),
      },
    },
    async (request) => {
      // Mails this process is still preparing after answering (reset mail) are shown once written.
      await app.ctx.background.settled(10_000);
      const limit = request.query.limit ?? 100;
      const where = request.query.to ? eq(outbox.to, request.query.to.trim().toLowerCase()) : undefined;
      const rows = await db.select().from(outbox).where(where).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit);
      return { mails: rows.map(toWire) };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'One mail of the outbox',
        tags: ['dev'],
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: responses({ 200: Mail }),
      },
    },
    async (request) => {
      const [row] = await db.select().from(outbox).where(eq(outbox.id, request.params.id));
      if (!row) throw notFound('mail_not_found', 'No such mail in the outbox.');
      return toWire(row);
    },
  );

  app.delete(
    '/',
    { schema: { summary: 'Empty the outbox', tags: ['dev'], response: responses({ 204: Empty }) } },
    async (_request, reply) => {
      await db.delete(outbox);
      return reply.code(204).send(null);
    },
  );
}
