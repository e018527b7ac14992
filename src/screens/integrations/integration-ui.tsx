/** Small pieces both Integrations screens draw: an entry's icon and a run's status. */
import { HardDriveUpload, MessageSquare, Plug, Search, type LucideIcon } from 'lucide-react';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';

/** The catalogue names its icons (lucide names); only these are bundled. */
const icons: Readonly<Record<string, LucideIcon>> = { MessageSquare, HardDriveUpload, Search };

export function IntegrationIcon({ name, size = 20 }: { name: string; size?: number }) {
  const Icon = icons[name] ?? Plug;
  return <Icon aria-hidden="true" size={size} className="integration-icon" />;
}

const statusLabels: Readonly<Record<string, MessageKey>> = {
  pending: 'integrations.status.pending',
  succeeded: 'integrations.status.succeeded',
  retrying: 'integrations.status.retrying',
  failed: 'integrations.status.failed',
};

/** A run's status (or an instance's last one) as a badge; unknown values as they came. */
export function StatusBadge({ status }: { status: string }) {
  const format = useFormat();
  const key = statusLabels[status];
  return <span className={`badge integration-status integration-status-${status}`}>{key ? format(key) : status}</span>;
}
