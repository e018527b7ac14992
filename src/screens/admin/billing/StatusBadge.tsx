/** An organization's billing status as a badge: OK plain, GRACE a warning, NO_CLIENT and BLOCK alarms. */
import type { BillingStatus } from '../../../../definitions/billing/status.ts';
import type { MessageKey } from '../../../../definitions/messages/format.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';

const label: Record<BillingStatus, MessageKey> = {
  OK: 'admin.billing.status.OK',
  GRACE: 'admin.billing.status.GRACE',
  NO_CLIENT: 'admin.billing.status.NO_CLIENT',
  BLOCK: 'admin.billing.status.BLOCK',
};

export const statusLabel = label;

export function StatusBadge({ status }: { status: BillingStatus }) {
  const format = useFormat();
  return <span className={`badge admin-status admin-status-${status.toLowerCase().replace('_', '-')}`}>{format(label[status])}</span>;
}
