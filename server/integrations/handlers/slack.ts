/**
 * The chat notification's handler: the item event as a Slack incoming-webhook message
 * (definitions/integrations/slack/message.ts) POSTed through the URL guard (the address checked
 * again at every attempt, a deadline, no redirect followed). Slack answers 200 "ok"; a 4xx other
 * than 429 means the message or the address is wrong, so the run fails without retrying.
 */
import { and, eq } from 'drizzle-orm';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { itemEventMessage } from '../../../definitions/integrations/slack/message.ts';
import { routePath } from '../../../definitions/route-path.ts';
import { contentCollections, projects } from '../../db/schema.ts';
import { levelAt, topLevel } from '../../content/schema-tree.ts';
import { OutboundError } from '../../lib/url-guard.ts';
import { RunFailure, type HandlerContext, type IntegrationHandler, type RunInput } from './types.ts';

/** What a test run sends: a sample item with every field of the first collection the instance names. */
const sampleItem = (schema: readonly SchemaField[]) =>
  Object.fromEntries(schema.filter((field) => field.type === 1 || field.type === 3 || field.type === 8).map((field) => [field.slug, field.type === 1 ? `Sample ${field.name.toLowerCase()}` : field.type === 3 ? 42 : true]));

export const slackHandler: IntegrationHandler = {
  async run(context: HandlerContext, input: RunInput) {
    const { db } = context;
    const [project] = await db.select({ name: projects.name }).from(projects).where(eq(projects.id, input.instance.projectId));
    const event = input.event;
    const collectionId = event?.collectionID ?? input.instance.collections[0]?.split('.')[0];
    const [collection] = collectionId
      ? await db.select().from(contentCollections).where(and(eq(contentCollections.projectId, input.instance.projectId), eq(contentCollections.id, collectionId)))
      : [];
    const slugs = event?.nestedPath ? event.nestedPath.split('.').filter((_part, i) => i % 2 === 0) : [];
    const level = collection ? levelAt(topLevel(collection.id, collection.schema as SchemaField[]), slugs) : undefined;
    const schema = level?.fields ?? [];
    const topItem = event ? (event.rootItemID ?? event.itemID) : undefined;
    const message = itemEventMessage({
      projectName: project?.name ?? 'Project',
      collectionName: [collection?.name ?? collectionId ?? 'Collection', ...slugs].join(' › '),
      trigger: event?.trigger ?? 'create',
      itemID: event?.itemID ?? 'sample',
      item: event?.item ?? sampleItem(schema),
      schema,
      heading: typeof input.settings.heading === 'string' ? input.settings.heading : undefined,
      consoleUrl:
        collection && topItem
          ? context.publicUrl + routePath('viewItem', { organizationID: input.instance.organizationId, projectID: input.instance.projectId, collectionID: collection.slug, itemID: topItem })
          : undefined,
    });
    const url = String(input.settings.webhookUrl ?? '');
    let answer;
    try {
      answer = await context.outbound.send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Larder-Integrations' },
        body: JSON.stringify(message),
        maxBytes: 2048,
        timeoutMs: context.timeoutMs,
      });
    } catch (error) {
      if (error instanceof OutboundError && error.kind === 'refused') throw new RunFailure(`The webhook address is refused: ${error.message}`, false);
      throw new RunFailure(`The chat service could not be reached: ${(error as Error).message}`);
    }
    const text = answer.body.toString('utf8').slice(0, 300);
    if (answer.status >= 200 && answer.status < 300) return { status: answer.status, fields: (message.blocks.filter((b) => b.type === 'section') as { fields: unknown[] }[]).reduce((n, b) => n + b.fields.length, 0) };
    const retry = answer.status >= 500 || answer.status === 429 || answer.status === 408;
    throw new RunFailure(`The chat service answered ${answer.status}${text ? `: ${text}` : ''}`, retry);
  },
};
