/**
 * Billing of all organizations (`/admin/billing`, docs/admin.md "Organizations"): the server-paged
 * table of every organization and the soft-launch panel with its whitelist.
 */
import '../../../definitions/messages/areas/admin.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { OrganizationsTable } from './billing/OrganizationsTable.tsx';
import { SoftLaunchPanel } from './billing/SoftLaunchPanel.tsx';
import './admin-billing.css';

export default function AdminBillingScreen() {
  const format = useFormat();
  return (
    <div className="admin-billing">
      <div className="admin-heading">
        <h2>{format('route.billingAdmin.title')}</h2>
        <p className="muted">{format('admin.billing.intro')}</p>
      </div>
      <OrganizationsTable />
      <SoftLaunchPanel />
    </div>
  );
}
