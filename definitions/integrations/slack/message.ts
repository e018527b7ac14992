/**
 * The Slack incoming-webhook message for one item event: a header ("Recipes · Posts: item
 * created"), the item's fields laid out two to a row (Slack draws a section's `fields` so, at most
 * 10 a section), and a context line with a link to the item in the console. `text` is the
 * notification's fallback. Slack's limits are kept: a header of 150 characters, a field of 2,000,
 * 50 blocks; mrkdwn's `&`, `<` and `>` are escaped so a value cannot make links or mentions.
 */
import { fieldType, type SchemaField } from '../../field-types/index.ts';

export interface ItemEventMessageInput {
  projectName: string;
  collectionName: string;
  trigger: 'create' | 'update' | 'delete';
  itemID: string;
  /** The item after the write (as it was, for delete). */
  item: Record<string, unknown>;
  /** The fields of the item's level (a nested level's own schema). */
  schema: readonly SchemaField[];
  /** The item in the console; absent: no link. */
  consoleUrl?: string;
  /** The instance's own heading, replacing the default one. */
  heading?: string;
}

export interface SlackMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

const verbs = { create: 'created', update: 'updated', delete: 'deleted' } as const;
/** Fields shown before "and N more". */
const MAX_FIELDS = 20;
const FIELD_CHARS = 2000;
const HEADER_CHARS = 150;

export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Markup reduced to its text, for a rich-text value. */
function plainOf(html: string): string {
  return html
    .replace(/<(br|\/p|\/h[1-6]|\/li|\/div)\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Each field with a value, as Slack shows it: `*Name*\nvalue`. */
function fieldTexts(schema: readonly SchemaField[], item: Record<string, unknown>): string[] {
  const texts: string[] = [];
  for (const field of schema) {
    const type = fieldType(field.type);
    if (!type || type.name === 'Metadata' || type.name === 'NestedCollection') continue;
    const value = item[field.slug];
    if (value === undefined || value === null || type.isEmpty(value)) continue;
    let shown = type.display(value, field);
    if (type.markup === 'html') shown = plainOf(shown);
    if (!shown) continue;
    const label = `*${escapeMrkdwn(cut(field.name, 100))}*\n`;
    texts.push(label + escapeMrkdwn(cut(shown, FIELD_CHARS - label.length - 10)));
  }
  return texts;
}

export function itemEventMessage(input: ItemEventMessageInput): SlackMessage {
  const title = cut(input.heading?.trim() || `${input.projectName} · ${input.collectionName}: item ${verbs[input.trigger]}`, HEADER_CHARS);
  const fields = fieldTexts(input.schema, input.item);
  const blocks: Record<string, unknown>[] = [{ type: 'header', text: { type: 'plain_text', text: title, emoji: false } }];
  const shown = fields.slice(0, MAX_FIELDS);
  for (let i = 0; i < shown.length; i += 10) {
    blocks.push({ type: 'section', fields: shown.slice(i, i + 10).map((text) => ({ type: 'mrkdwn', text })) });
  }
  const context = [`Item \`${escapeMrkdwn(input.itemID)}\``];
  if (fields.length > MAX_FIELDS) context.push(`and ${fields.length - MAX_FIELDS} more fields`);
  if (input.consoleUrl) context.push(`<${input.consoleUrl.replace(/[<>|]/g, encodeURIComponent)}|Open in Larder>`);
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: context.join(' · ') }] });
  return { text: escapeMrkdwn(`${title} (${input.itemID})`), blocks };
}
