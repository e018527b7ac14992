import type { FastifyInstance } from 'fastify';

export async function metricsRoutes(_app: FastifyInstance) {}
