/** The item page's confirmations: deleting an item, and leaving it with unsaved changes. */
import type { DialogDefinition } from './types.ts';

export const deleteItemDialog: DialogDefinition = {
  id: 'deleteItem',
  title: 'item.deleteTitle',
  description: 'item.deleteConfirm',
  actions: [
    { id: 'cancel', label: 'item.cancel' },
    { id: 'delete', label: 'item.deleteAction', primary: true },
  ],
};

export const leaveItemDialog: DialogDefinition = {
  id: 'leaveItem',
  title: 'item.leaveTitle',
  description: 'item.leaveConfirm',
  actions: [
    { id: 'stay', label: 'item.stayAction' },
    { id: 'leave', label: 'item.leaveAction', primary: true },
  ],
};
