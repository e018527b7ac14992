/**
 * What an integration's handler gets for one attempt of a run and what it answers
 * (docs/integrations.md "Runs"). A handler throws `RunFailure` (or any error) to fail the attempt;
 * the runner retries it on the schedule unless `retry` is false.
 */
import type { SubscriberEvent } from '../../lib/subscribers.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { IntegrationDefinition } from '../../../definitions/integrations/index.ts';
import type { Db } from '../../db/index.ts';
import type { UrlGuard } from '../../lib/url-guard.ts';

/** An item event as the relay recorded it in the run's detail (server/lib/subscribers.ts). */
export type RunEvent = SubscriberEvent;

export interface RunInput {
  trigger: 'create' | 'update' | 'delete' | 'schedule' | 'test';
  event?: RunEvent;
  instance: { id: string; projectId: string; organizationId: string; name: string; collections: string[] };
  entry: IntegrationDefinition;
  /** The settings with the secrets opened. */
  settings: Record<string, unknown>;
}

export interface HandlerContext {
  db: Db;
  outbound: UrlGuard;
  timeoutMs: number;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export interface IntegrationHandler {
  /** Does the run's work; answers what is kept in the run's detail (no secrets). */
  run(context: HandlerContext, input: RunInput): Promise<Record<string, unknown>>;
}

export class RunFailure extends Error {
  constructor(
    message: string,
    /** false: trying again cannot help (a setting is wrong); the run fails now. */
    readonly retry = true,
  ) {
    super(message);
    this.name = 'RunFailure';
  }
}
