import type { FastifyInstance } from 'fastify';

export async function organizationRoutes(_app: FastifyInstance) {}
