/**
 * The plan override: every plan of definitions/billing/plans.ts, hidden ones too (a contract agreed
 * with sales is assigned here), set at once without a charge (`PUT billingDetails/plan`; the free
 * plan is sent as null).
 */
import { useId, useState, type FormEvent } from 'react';
import { freePlan, plans } from '../../../../definitions/billing/plans.ts';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import { useAdminBillingChange } from '../../../api/admin-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';

export function PlanPanel({ organizationID, planID }: { organizationID: string; planID: string }) {
  const format = useFormat();
  const id = useId();
  const { setPlan } = useAdminBillingChange(organizationID);
  const problemMessage = useProblemMessage();
  const [value, setValue] = useState(planID);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (setPlan.isPending) return;
    setPlan.mutate(value === freePlan.id ? null : value, {
      onSuccess: (details) => void notify({ kind: 'success', title: format('admin.org.plan.saved', { plan: details.plan.name }) }),
    });
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <form className="form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`} className="form-title">
          {format('admin.org.plan.title')}
        </h3>
        {setPlan.error ? (
          <div role="alert" className="form-alert">
            {problemMessage(setPlan.error)}
          </div>
        ) : null}
        <div className="field">
          <label className="field-label" htmlFor={`${id}-plan`}>
            {format('admin.org.plan.label')}
          </label>
          <select id={`${id}-plan`} className="input" value={value} aria-describedby={`${id}-hint`} onChange={(event) => setValue(event.target.value)}>
            {plans.map((plan) => (
              <option key={plan.id} value={plan.id}>
                {plan.hidden ? format('admin.org.plan.hidden', { name: plan.name }) : plan.name}
              </option>
            ))}
          </select>
          <p id={`${id}-hint`} className="field-help">
            {format('admin.org.plan.hint')}
          </p>
        </div>
        <button type="submit" className="button button-primary" aria-disabled={setPlan.isPending || undefined} disabled={value === planID}>
          {format('admin.org.plan.submit')}
        </button>
      </form>
    </section>
  );
}
