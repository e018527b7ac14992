/** Mail's confirmation of leaving the template editors with unsaved drafts (the item page's texts). */
import type { DialogDefinition } from './types.ts';

export const leaveMailDialog: DialogDefinition = {
  id: 'leaveMail',
  title: 'item.leaveTitle',
  description: 'item.leaveConfirm',
  actions: [
    { id: 'stay', label: 'item.stayAction' },
    { id: 'leave', label: 'item.leaveAction', primary: true },
  ],
};
