/**
 * Scheduled export: the whole of one collection written to an S3-compatible bucket (AWS S3,
 * MinIO, Cloudflare R2, Backblaze B2…) as CSV or JSON on a cron schedule, one object per run
 * named by the run's time under the prefix.
 */
import type { IntegrationDefinition } from '../types.ts';

export const s3Export: IntegrationDefinition = {
  id: 's3-export',
  name: 'integrations.s3Export.name',
  description: 'integrations.s3Export.description',
  icon: 'HardDriveUpload',
  settings: {
    id: 'integrationS3Export',
    title: 'integrations.settings.title',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['bucket', 'region', 'accessKeyId', 'format'],
      properties: {
        endpoint: { type: 'string', maxLength: 2048, pattern: '^(https?://[^\\s]+)?$' },
        region: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9-]+$' },
        bucket: { type: 'string', minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9.-]*[a-z0-9]$' },
        prefix: { type: 'string', maxLength: 512, pattern: '^(?!/)[^\\s]*$' },
        accessKeyId: { type: 'string', minLength: 1, maxLength: 256 },
        secretAccessKey: { type: 'string', minLength: 1, maxLength: 256 },
        format: { type: 'string', enum: ['csv', 'json'] },
      },
    },
    fields: [
      { name: 'endpoint', widget: 'text', inputType: 'url', label: 'integrations.s3Export.endpoint', help: 'integrations.s3Export.endpointHelp', trim: true },
      { name: 'region', widget: 'text', label: 'integrations.s3Export.region', trim: true },
      { name: 'bucket', widget: 'text', label: 'integrations.s3Export.bucket', trim: true },
      { name: 'prefix', widget: 'text', label: 'integrations.s3Export.prefix', help: 'integrations.s3Export.prefixHelp', trim: true },
      { name: 'accessKeyId', widget: 'text', label: 'integrations.s3Export.accessKeyId', trim: true, autoComplete: 'off' },
      { name: 'secretAccessKey', widget: 'text', inputType: 'password', label: 'integrations.s3Export.secretAccessKey', autoComplete: 'off' },
      {
        name: 'format',
        widget: 'select',
        label: 'integrations.s3Export.format',
        options: [
          { value: 'csv', label: 'integrations.s3Export.format.csv' },
          { value: 'json', label: 'integrations.s3Export.format.json' },
        ],
      },
    ],
    errorMessages: {
      endpoint: { pattern: 'integrations.error.url', maxLength: 'integrations.error.url' },
      region: { pattern: 'integrations.s3Export.regionInvalid' },
      bucket: { pattern: 'integrations.s3Export.bucketInvalid', minLength: 'integrations.s3Export.bucketInvalid', maxLength: 'integrations.s3Export.bucketInvalid' },
      prefix: { pattern: 'integrations.s3Export.prefixInvalid' },
    },
    submit: 'integrations.settings.save',
    submitting: 'integrations.settings.saving',
  },
  secrets: ['secretAccessKey'],
  requiredSecrets: ['secretAccessKey'],
  addresses: ['endpoint'],
  events: ['schedule'],
  collections: 'one',
  testHelp: 'integrations.s3Export.testHelp',
};
