/**
 * What a webhook may be: the console's Create Webhook dialog and the
 * server's checks read the same lists and limits.
 */
export const webhookMethods = ['POST', 'PUT'] as const;
export type WebhookMethod = (typeof webhookMethods)[number];

export const webhookTriggers = ['create', 'update', 'delete'] as const;
export type WebhookTrigger = (typeof webhookTriggers)[number];

/** A delivery's state: pending (another attempt is due), delivered or failed. */
export const webhookDeliveryStates = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof webhookDeliveryStates)[number];

export const webhookLimits = {
  nameMax: 200,
  /** Longest receiver address, in characters. */
  uriMax: 2048,
  /** Most collections (ids or nested slugs) one webhook listens to. */
  collectionsMax: 500,
  /** Longest stored answer of a receiver, in bytes (the log keeps the start). */
  responseBodyMax: 2048,
  /** Log entries per page. */
  logPage: 50,
} as const;

/** The request headers of every delivery (docs/webhooks.md). */
export const webhookHeaders = {
  signature: 'x-larder-signature',
  timestamp: 'x-larder-timestamp',
  delivery: 'x-larder-delivery',
  trigger: 'x-larder-trigger',
  attempt: 'x-larder-attempt',
} as const;
