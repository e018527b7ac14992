/**
 * Chat notification: a message to a Slack channel (or anything that takes Slack's incoming-webhook
 * format: Mattermost, Rocket.Chat, Discord's `/slack` endpoint) when an item of the chosen
 * collections is created, changed or deleted, with the item's fields laid out (message.ts).
 */
import type { IntegrationDefinition } from '../types.ts';

export const slack: IntegrationDefinition = {
  id: 'slack',
  name: 'integrations.slack.name',
  description: 'integrations.slack.description',
  icon: 'MessageSquare',
  settings: {
    id: 'integrationSlack',
    title: 'integrations.settings.title',
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        webhookUrl: { type: 'string', minLength: 1, maxLength: 2048, pattern: '^https?://[^\\s]+$' },
        heading: { type: 'string', maxLength: 150 },
      },
    },
    fields: [
      { name: 'webhookUrl', widget: 'text', inputType: 'password', label: 'integrations.slack.webhookUrl', help: 'integrations.slack.webhookUrlHelp', trim: true, autoComplete: 'off' },
      { name: 'heading', widget: 'text', label: 'integrations.slack.heading', help: 'integrations.slack.headingHelp', trim: true },
    ],
    errorMessages: { webhookUrl: { pattern: 'integrations.error.url', maxLength: 'integrations.error.url' } },
    submit: 'integrations.settings.save',
    submitting: 'integrations.settings.saving',
  },
  secrets: ['webhookUrl'],
  requiredSecrets: ['webhookUrl'],
  addresses: ['webhookUrl'],
  events: ['create', 'update', 'delete'],
  collections: 'many',
  testHelp: 'integrations.slack.testHelp',
};
