/**
 * An organization's add-ons: the list (a price per period in each currency) with Remove, which
 * sends the list without it (`PUT billingDetails/addOn`), and a form that adds one (`POST`),
 * prices typed as whole major units and sent ×100. Either change says "Billing Add-Ons Updated".
 */
import { useId, useState } from 'react';
import adminAddOnForm from '../../../../definitions/forms/admin-add-on.ts';
import validateAdminAddOn from '../../../../definitions/forms/admin-add-on.ts?validator';
import { formatMoney } from '../../../../definitions/billing/money.ts';
import { FormRenderer } from '../../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import type { BillingDetails } from '../../../api/billing.ts';
import { useAdminBillingChange } from '../../../api/admin-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';

export function AddOnsPanel({ organizationID, addOns }: { organizationID: string; addOns: BillingDetails['addOns'] }) {
  const format = useFormat();
  const id = useId();
  const { addAddOn, replaceAddOns } = useAdminBillingChange(organizationID);
  const problemMessage = useProblemMessage();
  const [round, setRound] = useState(0);
  const updated = () => void notify({ kind: 'success', title: format('billing.addOnsUpdated') });

  const remove = (index: number) => {
    if (replaceAddOns.isPending) return;
    replaceAddOns.mutate(
      addOns.filter((_, at) => at !== index),
      { onSuccess: updated, onError: (error) => void notify({ kind: 'error', title: problemMessage(error) }) },
    );
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{format('admin.org.addOns.title')}</h3>
      {addOns.length ? (
        <div className="table-scroll">
          <table className="table table-compact">
            <caption className="visually-hidden">{format('admin.org.addOns.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{format('admin.org.addOns.name')}</th>
                <th scope="col" className="cell-number">
                  {format('admin.org.addOns.amount')}
                </th>
                <th scope="col" className="cell-number">
                  {format('admin.org.addOns.nisAmount')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{format('admin.org.addOns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody data-testid="add-ons">
              {addOns.map((addOn, index) => (
                <tr key={`${index}-${addOn.title}`}>
                  <th scope="row">{addOn.title}</th>
                  <td className="cell-number">{formatMoney(addOn.amount, 'USD')}</td>
                  <td className="cell-number">{formatMoney(addOn.nisAmount, 'NIS')}</td>
                  <td className="cell-actions">
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={format('admin.org.addOns.removeLabel', { title: addOn.title })}
                      aria-disabled={replaceAddOns.isPending || undefined}
                      onClick={() => remove(index)}
                    >
                      {format('admin.org.addOns.remove')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="empty-state">{format('admin.org.addOns.empty')}</p>
      )}
      <FormRenderer
        key={round}
        definition={adminAddOnForm}
        validate={validateAdminAddOn}
        headingLevel={3}
        busy={addAddOn.isPending}
        error={addAddOn.error ? problemMessage(addAddOn.error) : null}
        onSubmit={async (values) => {
          try {
            await addAddOn.mutateAsync({ title: String(values.name), amount: Number(values.amount) * 100, nisAmount: Number(values.nisAmount) * 100 });
            updated();
            addAddOn.reset();
            setRound((n) => n + 1);
          } catch {
            // shown by the form
          }
        }}
      />
    </section>
  );
}
