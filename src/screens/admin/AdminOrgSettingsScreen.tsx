/**
 * One organization as platform super-admins see it (`/admin/billing/organization/{id}/settings`,
 * docs/admin.md "Organizations"): its billing facts (`adminBillingDetails`), add credit, add-ons,
 * the billing date, the plan override, its place on the soft-launch whitelist, and its members
 * and projects (`GET admin/organizations/{id}`).
 */
import '../../../definitions/messages/areas/admin.ts';
import { useId } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { Switch } from 'radix-ui';
import { currencyOfNumber, formatMoney } from '../../../definitions/billing/money.ts';
import { freePlan } from '../../../definitions/billing/plans.ts';
import { routePath } from '../../../definitions/route-path.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { AdminOrganizationDetail } from '../../api/admin.ts';
import type { BillingDetails } from '../../api/billing.ts';
import { useAdminBillingDetails, useAdminOrganization } from '../../api/admin-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { AddOnsPanel } from './billing/AddOnsPanel.tsx';
import { BillingDatePanel } from './billing/BillingDatePanel.tsx';
import { CreditPanel } from './billing/CreditPanel.tsx';
import { formatDay } from './billing/day.ts';
import { balanceText } from './billing/org-money.ts';
import { PlanPanel } from './billing/PlanPanel.tsx';
import { StatusBadge } from './billing/StatusBadge.tsx';
import { useWhitelistChange } from './billing/use-whitelist-change.ts';
import './admin-billing.css';

const currencyKey = { 1: 'billing.currency.1', 2: 'billing.currency.2' } as const;
const frequencyKey = { 1: 'billing.frequency.1', 2: 'billing.frequency.2' } as const;

export default function AdminOrgSettingsScreen() {
  const format = useFormat();
  const { organizationID = '' } = useParams();
  const detail = useAdminOrganization(organizationID);
  const billing = useAdminBillingDetails(organizationID);
  const problemMessage = useProblemMessage();
  const failed = detail.error ?? billing.error;

  return (
    <div className="admin-billing admin-org">
      <Link className="back-link" to={routePath('billingAdminList')}>
        <ArrowLeft aria-hidden="true" size={16} />
        {format('admin.org.back')}
      </Link>
      {failed ? (
        <>
          <h2>{format('route.adminOrgSettings.title')}</h2>
          <p role="alert" className="callout-error">
            {format('admin.org.readFailed', { reason: problemMessage(failed) })}
          </p>
        </>
      ) : !detail.data || billing.isPending ? (
        <p className="muted" role="status">
          {format('admin.org.loading')}
        </p>
      ) : (
        <Loaded detail={detail.data} billing={billing.data ?? null} />
      )}
    </div>
  );
}

function Loaded({ detail, billing }: { detail: AdminOrganizationDetail; billing: BillingDetails | null }) {
  const format = useFormat();
  const { organization } = detail;
  return (
    <>
      <div className="admin-heading">
        <h2>{organization.name}</h2>
        <p className="muted input-mono">{format('admin.org.id', { id: organization.id })}</p>
      </div>
      <div className="admin-org-grid">
        <div className="admin-org-column">
          <section className="panel admin-panel admin-facts" aria-labelledby="admin-org-facts">
            <h3 id="admin-org-facts">{format('admin.org.facts')}</h3>
            <Facts detail={detail} billing={billing} />
            <WhitelistSwitch organizationID={organization.id} name={organization.name} on={organization.whitelisted} />
          </section>
          <BillingDatePanel key={billing?.nextBillingDate ?? ''} organizationID={organization.id} nextBillingDate={billing?.nextBillingDate ?? organization.nextBillingDate} />
          <PlanPanel key={billing?.plan.id ?? ''} organizationID={organization.id} planID={billing?.plan.id ?? organization.planID ?? freePlan.id} />
        </div>
        <div className="admin-org-column">
          <CreditPanel organizationID={organization.id} />
          <AddOnsPanel organizationID={organization.id} addOns={billing?.addOns ?? []} />
        </div>
      </div>
      <Members detail={detail} />
      <Projects detail={detail} />
    </>
  );
}

function Facts({ detail, billing }: { detail: AdminOrganizationDetail; billing: BillingDetails | null }) {
  const format = useFormat();
  const { organization } = detail;
  const notSet = <span className="muted">{format('admin.billing.notSet')}</span>;
  const day = (value: string | null) => (value ? formatDay(value) : notSet);
  const currency = billing ? (currencyOfNumber(billing.currency) ?? 'USD') : 'USD';
  return (
    <>
      {billing ? null : <p className="callout-info">{format('admin.org.noAccount')}</p>}
      <dl className="facts billing-facts" data-testid="admin-org-facts">
        <dt>{format('billing.info.plan')}</dt>
        <dd>{billing?.plan.name ?? organization.planName}</dd>
        <dt>{format('admin.org.fact.status')}</dt>
        <dd>
          <StatusBadge status={billing?.status ?? organization.status} />
        </dd>
        {billing ? (
          <>
            <dt>{format('billing.info.amount')}</dt>
            <dd>{formatMoney(billing.totalBillingAmount, currency)}</dd>
            <dt>{format('billing.info.currency')}</dt>
            <dd>{format(currencyKey[billing.currency])}</dd>
            <dt>{format('billing.info.frequency')}</dt>
            <dd>{format(frequencyKey[billing.billingFrequency])}</dd>
            <dt>{format('admin.org.fact.seats')}</dt>
            <dd>{format('admin.org.fact.seatsValue', { total: billing.seats.total, included: billing.seats.included, paid: billing.seats.paid })}</dd>
          </>
        ) : (
          <>
            <dt>{format('admin.org.fact.seats')}</dt>
            <dd>{organization.seats}</dd>
          </>
        )}
        <dt>{format('billing.info.nextBillingDate')}</dt>
        <dd>{day(billing?.nextBillingDate ?? organization.nextBillingDate)}</dd>
        <dt>{format('admin.org.fact.lastBillingDate')}</dt>
        <dd>{day(billing?.lastBillingDate ?? null)}</dd>
        <dt>{format('admin.org.fact.balance')}</dt>
        <dd>{balanceText(organization)}</dd>
        <dt>{format('admin.org.fact.creditUSD')}</dt>
        <dd data-testid="credit-usd">{formatMoney(billing?.credit.amount ?? organization.credit.amount, 'USD')}</dd>
        <dt>{format('admin.org.fact.creditNIS')}</dt>
        <dd data-testid="credit-nis">{formatMoney(billing?.credit.nisAmount ?? organization.credit.nisAmount, 'NIS')}</dd>
        <dt>{format('billing.field.email')}</dt>
        <dd>{billing?.billingEmail ?? notSet}</dd>
        <dt>{format('billing.info.card')}</dt>
        <dd>{billing?.creditCardDetails ? `${billing.creditCardDetails.cardNumber} (${billing.creditCardDetails.brand})` : notSet}</dd>
        <dt>{format('admin.org.fact.created')}</dt>
        <dd>{formatDay(organization.createdDate)}</dd>
      </dl>
    </>
  );
}

/** The organization's place on the soft-launch whitelist, changed at once (the switch is the confirmation). */
function WhitelistSwitch({ organizationID, name, on }: { organizationID: string; name: string; on: boolean }) {
  const format = useFormat();
  const id = useId();
  const { change, pending } = useWhitelistChange();
  return (
    <div className="switch-row admin-switch">
      <label className="switch-label" htmlFor={id}>
        {format('admin.org.whitelist')}
      </label>
      <Switch.Root
        id={id}
        className="switch"
        checked={on}
        disabled={pending}
        onCheckedChange={(next) => {
          void change(organizationID, name, next);
        }}
      >
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
    </div>
  );
}

function Members({ detail }: { detail: AdminOrganizationDetail }) {
  const format = useFormat();
  return (
    <section className="panel admin-panel" aria-labelledby="admin-org-members">
      <h3 id="admin-org-members">{format('admin.org.members.title')}</h3>
      {detail.members.length === 0 ? (
        <p className="empty-state">{format('admin.org.members.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact" aria-labelledby="admin-org-members">
            <thead>
              <tr>
                <th scope="col">{format('admin.org.members.email')}</th>
                <th scope="col">{format('admin.org.members.username')}</th>
                <th scope="col">{format('admin.org.members.admin')}</th>
                <th scope="col">{format('admin.org.members.disabled')}</th>
              </tr>
            </thead>
            <tbody>
              {detail.members.map((member) => (
                <tr key={member.id}>
                  <th scope="row">{member.email}</th>
                  <td>{member.username}</td>
                  <td>{format(member.admin ? 'admin.billing.yes' : 'admin.billing.no')}</td>
                  <td>{member.disabled ? <span className="badge admin-status admin-status-block">{format('admin.org.members.disabled')}</span> : format('admin.billing.no')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Projects({ detail }: { detail: AdminOrganizationDetail }) {
  const format = useFormat();
  return (
    <section className="panel admin-panel" aria-labelledby="admin-org-projects">
      <h3 id="admin-org-projects">{format('admin.org.projects.title')}</h3>
      {detail.projects.length === 0 ? (
        <p className="empty-state">{format('admin.org.projects.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact" aria-labelledby="admin-org-projects">
            <thead>
              <tr>
                <th scope="col">{format('admin.org.projects.name')}</th>
                <th scope="col" className="cell-number">
                  {format('admin.org.projects.collections')}
                </th>
                <th scope="col" className="cell-number">
                  {format('admin.org.projects.items')}
                </th>
              </tr>
            </thead>
            <tbody>
              {detail.projects.map((project) => (
                <tr key={project.id}>
                  <th scope="row">{project.name}</th>
                  <td className="cell-number">{project.collections.toLocaleString('en')}</td>
                  <td className="cell-number">{project.items.toLocaleString('en')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
