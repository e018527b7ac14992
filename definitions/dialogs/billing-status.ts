/**
 * "Billing Account Status": shown while the current organization's billing status is not OK
 * (docs/console.md "Billing status in the console"). GRACE: can be closed; NO_CLIENT and BLOCK:
 * persistent, only its button closes it. Admins get "Update Payment Information" (organization
 * settings with the Setup Credit Card dialog open); members, who cannot pay, are told to ask an
 * admin and only acknowledge.
 */
import type { FailedStatus } from '../billing/status.ts';
import type { DialogAction, DialogDefinition } from './types.ts';

/** The button that answers the dialog (UPDATE_PAYMENT); `close` only dismisses a GRACE dialog. */
export const billingStatusActions = { updatePayment: 'updatePayment', close: 'close' } as const;

const adminText = { GRACE: 'billingStatus.grace', NO_CLIENT: 'billingStatus.noClient', BLOCK: 'billingStatus.block' } as const;
const memberText = { GRACE: 'billingStatus.member.grace', NO_CLIENT: 'billingStatus.member.noClient', BLOCK: 'billingStatus.member.block' } as const;

export function billingStatusDialog(status: FailedStatus, isAdmin: boolean): DialogDefinition {
  const persistent = status !== 'GRACE';
  const close: DialogAction = { id: billingStatusActions.close, label: 'dialog.close' };
  const answer: DialogAction = isAdmin
    ? { id: billingStatusActions.updatePayment, label: 'billingStatus.updatePayment', primary: true }
    : { id: billingStatusActions.updatePayment, label: 'billingStatus.member.acknowledge', primary: true };
  return {
    id: 'billingStatus',
    title: 'billingStatus.title',
    description: isAdmin ? adminText[status] : memberText[status],
    // A member's acknowledgement closes a GRACE dialog by itself: no second button.
    actions: persistent || !isAdmin ? [answer] : [close, answer],
    persistent,
  };
}
