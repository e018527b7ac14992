/**
 * Each catalogue entry's settings validator, compiled at build time from its form definition
 * (vite-plugin-form-validators.ts), so no ajv compiler reaches the browser. A new integration adds
 * its `settings-form.ts` and a line here; the DOM test holds every catalogue entry to having one.
 */
import type { StandaloneValidate } from '../../../renderers/forms/standalone-validator.ts';
import validateMeilisearch from '../../../definitions/integrations/meilisearch/settings-form.ts?validator';
import validateS3Export from '../../../definitions/integrations/s3-export/settings-form.ts?validator';
import validateSlack from '../../../definitions/integrations/slack/settings-form.ts?validator';

export const settingsValidators: Readonly<Record<string, StandaloneValidate>> = {
  slack: validateSlack,
  's3-export': validateS3Export,
  meilisearch: validateMeilisearch,
};
