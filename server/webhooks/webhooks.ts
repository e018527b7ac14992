/**
 * A project's webhooks: create, list, change, delete, the delivery log
 * and what a content event matches. Deliveries themselves are server/webhooks/delivery.ts.
 *
 * `collections` holds collection ids or slugs, or nested slugs (`posts.comments`: the comments of
 * a post); an empty list means every collection of the project, nested ones included. A webhook
 * listens to the lists it names only: `posts` does not fire for a post's comments.
 *
 * A member who sees a restricted view of the project (definitions/restricted-view.ts) sees only the
 * webhooks that name collections of their view, and makes only such ones: a webhook is sent every
 * item it listens to, so one listening to a hidden collection (or to all) would hand it over.
 */
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { webhookLimits, webhookMethods, webhookTriggers, type WebhookDeliveryState, type WebhookMethod, type WebhookTrigger } from '../../definitions/webhooks.ts';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { Db } from '../db/index.ts';
import { contentCollections, webhookAttempts, webhookDeliveries, webhooks } from '../db/schema.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { newId, newSecret } from '../lib/ids.ts';
import { OutboundError, type UrlGuard } from '../lib/url-guard.ts';
import { levelAt, topLevel } from '../content/schema-tree.ts';
import type { CollectionVisibility } from '../main/projects.ts';
import type { CreatedWebhook, Webhook, WebhookLogEntry } from '../../definitions/schemas/webhook.ts';

export interface WebhookInput {
  name: string;
  webhookURI: string;
  method: string;
  trigger: string;
  collections: string[];
}

export type WebhookRow = typeof webhooks.$inferSelect;

const toView = (row: WebhookRow): Webhook => ({
  id: row.id,
  name: row.name,
  webhookURI: row.uri,
  method: row.method as WebhookMethod,
  trigger: row.trigger as WebhookTrigger,
  projectID: row.projectId,
  organizationID: row.organizationId,
  collections: row.collections as string[],
  enabled: row.disabledAt === null,
  disabledAt: row.disabledAt?.toISOString() ?? null,
  disabledReason: row.disabledReason,
  consecutiveFailures: row.consecutiveFailures,
  createdDate: row.createdAt.toISOString(),
  updatedDate: row.updatedAt.toISOString(),
});

type Problems = { path: string; message: string }[];

const invalidWebhook = (errors: Problems) =>
  new AppError(400, 'invalid_webhook', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });

export const webhookNotFound = () => notFound('webhook_not_found', 'There is no such webhook.');

/** Spaces and control characters: the URL parser drops or encodes them, so the address stored would not be the one called. */
const unsentCharacters = /[\s\u0000-\u001f\u007f-\u009f]/u;

type CollectionKey = { id: string; slug: string; schema: unknown };

/** The collection a webhook entry (`id`, `slug` or `slug.nested`) starts with. */
const headOf = (rows: readonly CollectionKey[], entry: string) => {
  const head = entry.split('.')[0];
  return rows.find((r) => r.id === head || r.slug === head);
};

/** Whether a webhook listening to `collections` is one the caller may see (module comment). */
const seenBy = (visibility: CollectionVisibility | undefined, collections: readonly string[], rows: readonly CollectionKey[]) =>
  !visibility?.restricted ||
  (collections.length > 0 &&
    collections.every((entry) => {
      const row = headOf(rows, entry);
      return row !== undefined && visibility.visible(row.slug);
    }));

/** The list keys an event matches: its collection by id and by slug, followed by the nested slugs of its list. */
export function eventKeys(collection: { id: string; slug: string }, nestedPath: string): string[] {
  const slugs = nestedPath ? nestedPath.split('.').filter((_part, i) => i % 2 === 0) : [];
  const tail = slugs.length ? `.${slugs.join('.')}` : '';
  return [`${collection.id}${tail}`, `${collection.slug}${tail}`];
}

export function matches(row: Pick<WebhookRow, 'trigger' | 'collections'>, trigger: string, keys: readonly string[]): boolean {
  if (row.trigger !== trigger) return false;
  const wanted = row.collections as string[];
  return wanted.length === 0 || wanted.some((entry) => keys.includes(entry));
}

export class WebhookService {
  constructor(
    private readonly db: Db,
    private readonly outbound: UrlGuard,
  ) {}

  private collectionKeys(projectId: string): Promise<CollectionKey[]> {
    return this.db
      .select({ id: contentCollections.id, slug: contentCollections.slug, schema: contentCollections.schema })
      .from(contentCollections)
      .where(eq(contentCollections.projectId, projectId));
  }

  /** Checks an input against the project (and the caller's view of it): a clear 400 naming every problem. */
  private async validate(projectId: string, input: WebhookInput, visibility?: CollectionVisibility): Promise<WebhookInput> {
    const errors: Problems = [];
    const name = input.name.trim();
    if (!name) errors.push({ path: 'name', message: 'must not be empty' });
    if (name.length > webhookLimits.nameMax) errors.push({ path: 'name', message: `must be at most ${webhookLimits.nameMax} characters` });
    const uri = input.webhookURI.trim();
    if (uri.length > webhookLimits.uriMax) errors.push({ path: 'webhookURI', message: `must be at most ${webhookLimits.uriMax} characters` });
    else if (unsentCharacters.test(uri)) errors.push({ path: 'webhookURI', message: 'must not contain spaces or control characters (percent-encode them)' });
    else {
      try {
        await this.outbound.checkResolved(uri);
      } catch (error) {
        const reason = error instanceof OutboundError ? error.message : 'not an address';
        errors.push({ path: 'webhookURI', message: `must be a public http or https address (${reason})` });
      }
    }
    if (!(webhookMethods as readonly string[]).includes(input.method)) errors.push({ path: 'method', message: `must be one of ${webhookMethods.join(', ')}` });
    if (!(webhookTriggers as readonly string[]).includes(input.trigger)) errors.push({ path: 'trigger', message: `must be one of ${webhookTriggers.join(', ')}` });
    const collections = [...new Set(input.collections.map((c) => c.trim()))];
    if (collections.length > webhookLimits.collectionsMax) errors.push({ path: 'collections', message: `must list at most ${webhookLimits.collectionsMax} collections` });
    else if (!collections.length && visibility?.restricted) {
      errors.push({ path: 'collections', message: 'must name the collections to listen to (you see a restricted view of this project)' });
    } else if (collections.length) {
      const rows = await this.collectionKeys(projectId);
      for (const entry of collections) {
        const rest = entry.split('.').slice(1);
        const row = headOf(rows, entry);
        // A collection hidden from the caller's view is refused in the words of one that does not exist.
        if (!row || !seenBy(visibility, [entry], rows) || !levelAt(topLevel(row.id, row.schema as SchemaField[]), rest)) {
          errors.push({ path: 'collections', message: `"${entry.slice(0, 100)}" is not a collection of this project` });
        }
      }
    }
    if (errors.length) throw invalidWebhook(errors);
    return { name, webhookURI: uri, method: input.method, trigger: input.trigger, collections };
  }

  /** The project's webhooks the caller may see (all of them unless their view is restricted). */
  async list(projectId: string, visibility?: CollectionVisibility): Promise<Webhook[]> {
    const rows = await this.db.select().from(webhooks).where(eq(webhooks.projectId, projectId)).orderBy(webhooks.createdAt, webhooks.id);
    if (!visibility?.restricted) return rows.map(toView);
    const keys = await this.collectionKeys(projectId);
    return rows.filter((row) => seenBy(visibility, row.collections as string[], keys)).map(toView);
  }

  /** 404, as for a webhook that does not exist, when the caller's restricted view may not see this one. */
  async requireSeen(row: WebhookRow, visibility: CollectionVisibility): Promise<void> {
    if (!visibility.restricted) return;
    if (!seenBy(visibility, row.collections as string[], await this.collectionKeys(row.projectId))) throw webhookNotFound();
  }

  async row(id: string): Promise<WebhookRow> {
    const [row] = await this.db.select().from(webhooks).where(eq(webhooks.id, id));
    if (!row) throw webhookNotFound();
    return row;
  }

  /** Creates a webhook; the answer carries its signing secret, shown only here. */
  async create(organizationId: string, projectId: string, userId: string, input: WebhookInput, visibility?: CollectionVisibility): Promise<CreatedWebhook> {
    const valid = await this.validate(projectId, input, visibility);
    const secret = `whsec_${newSecret()}`;
    const [row] = await this.db
      .insert(webhooks)
      .values({
        id: newId(),
        projectId,
        organizationId,
        name: valid.name,
        uri: valid.webhookURI,
        method: valid.method,
        trigger: valid.trigger,
        collections: valid.collections,
        secret,
        // Events that committed before this statement are not the new webhook's (enabledSnapshot).
        enabledSnapshot: sql`pg_current_snapshot()::text`,
        createdBy: userId,
      })
      .returning();
    return { ...toView(row!), secret };
  }

  /**
   * Changes a webhook's settings; `enabled: true` turns a disabled one back on (its failure count
   * starts again) and from then on it is sent only the events committed after this statement: the
   * ones written while it was off are never sent, however late the relay reaches them
   * (docs/webhooks.md, on and off). Saving an enabled webhook with `enabled: true` changes neither.
   */
  async update(row: WebhookRow, input: WebhookInput, enabled: boolean | undefined, visibility?: CollectionVisibility): Promise<Webhook> {
    const valid = await this.validate(row.projectId, input, visibility);
    const [updated] = await this.db
      .update(webhooks)
      .set({
        name: valid.name,
        uri: valid.webhookURI,
        method: valid.method,
        trigger: valid.trigger,
        collections: valid.collections,
        updatedAt: new Date(),
        ...(enabled === true
          ? {
              disabledAt: null,
              disabledReason: null,
              consecutiveFailures: 0,
              // Decided on the row as this statement finds it, so a disabling that raced the read counts.
              enabledSnapshot: sql`case when ${webhooks.disabledAt} is null then ${webhooks.enabledSnapshot} else pg_current_snapshot()::text end`,
            }
          : {}),
        ...(enabled === false && row.disabledAt === null ? { disabledAt: new Date(), disabledReason: 'Disabled by a user.' } : {}),
      })
      .where(eq(webhooks.id, row.id))
      .returning();
    return toView(updated!);
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(webhooks).where(eq(webhooks.id, id));
  }

  /** The webhook's log, newest attempt first; `before` pages on (an entry id). */
  async logs(webhookId: string, before?: number): Promise<WebhookLogEntry[]> {
    const rows = await this.db
      .select({
        id: webhookAttempts.id,
        deliveryID: webhookAttempts.deliveryId,
        eventID: webhookDeliveries.eventId,
        trigger: webhookDeliveries.trigger,
        attempt: webhookAttempts.attempt,
        manual: webhookAttempts.manual,
        statusCode: webhookAttempts.statusCode,
        responseBody: webhookAttempts.responseBody,
        error: webhookAttempts.error,
        createdAt: webhookAttempts.createdAt,
        durationMs: webhookAttempts.durationMs,
        state: webhookDeliveries.state,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
      })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(and(eq(webhookAttempts.webhookId, webhookId), before === undefined ? sql`true` : lt(webhookAttempts.id, before)))
      .orderBy(desc(webhookAttempts.id))
      .limit(webhookLimits.logPage);
    return rows.map(({ createdAt, nextAttemptAt, ...rest }) => ({
      ...rest,
      timeStamp: createdAt.toISOString(),
      state: rest.state as WebhookDeliveryState,
      nextAttemptAt: rest.state === 'pending' ? (nextAttemptAt?.toISOString() ?? null) : null,
    }));
  }

  /** A delivery of this webhook, or 404. */
  async delivery(webhookId: string, deliveryId: string) {
    const [row] = await this.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, webhookId), inArray(webhookDeliveries.id, [deliveryId])));
    if (!row) throw notFound('webhook_delivery_not_found', 'There is no such delivery of this webhook.');
    return row;
  }
}
