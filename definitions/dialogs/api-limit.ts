/** Shown on HTTP 429: at most once per 30 seconds, or after the reminder delay. */
import type { DialogDefinition } from './types.ts';

export const apiLimitDialog: DialogDefinition = {
  id: 'apiLimit',
  title: 'apiLimit.title',
  description: 'apiLimit.detail',
  actions: [
    { id: 'remindLater', label: 'apiLimit.remindLater' },
    { id: 'seePlans', label: 'apiLimit.seePlans', primary: true },
  ],
};
