/** A project's webhook and its delivery log as `/api/webhook` answers them (docs/webhooks.md). */
import { Type, type Static } from '@sinclair/typebox';
import type { WebhookDeliveryState, WebhookMethod, WebhookTrigger } from '../webhooks.ts';
import { Nullable, StringOf } from './wire.ts';

export const Webhook = Type.Object({
  id: Type.String(),
  name: Type.String(),
  webhookURI: Type.String(),
  method: StringOf<WebhookMethod>(),
  trigger: StringOf<WebhookTrigger>(),
  projectID: Type.String(),
  organizationID: Type.String(),
  collections: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledAt: Nullable(Type.String()),
  disabledReason: Nullable(Type.String()),
  consecutiveFailures: Type.Integer(),
  createdDate: Type.String(),
  updatedDate: Type.String(),
});
export type Webhook = Static<typeof Webhook>;

/** The answer to creating a webhook: the only time its signing secret is shown. */
export const CreatedWebhook = Type.Composite([Webhook, Type.Object({ secret: Type.String() })]);
export type CreatedWebhook = Static<typeof CreatedWebhook>;

/** One delivery attempt of the webhook's log. */
export const WebhookLogEntry = Type.Object({
  id: Type.Integer(),
  deliveryID: Type.String(),
  eventID: Type.Integer(),
  trigger: Type.String(),
  attempt: Type.Integer(),
  manual: Type.Boolean(),
  statusCode: Nullable(Type.Integer()),
  responseBody: Nullable(Type.String()),
  error: Nullable(Type.String()),
  timeStamp: Type.String(),
  durationMs: Type.Integer(),
  /** The delivery's state now (definitions/webhooks.ts). */
  state: StringOf<WebhookDeliveryState>(),
  nextAttemptAt: Nullable(Type.String()),
});
export type WebhookLogEntry = Static<typeof WebhookLogEntry>;
