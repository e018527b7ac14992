/**
 * Add credit: whole major units per currency, parsed as integers by the form's schema and
 * multiplied by 100 here (the server keeps minor units). A blank field is 0; both 0 is refused
 * before any call. Success says "Credit added to organization" and clears the form.
 */
import { useState } from 'react';
import adminCreditForm from '../../../../definitions/forms/admin-credit.ts';
import validateAdminCredit from '../../../../definitions/forms/admin-credit.ts?validator';
import { FormRenderer } from '../../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import { useAdminBillingChange } from '../../../api/admin-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';

const minor = (major: unknown) => (typeof major === 'number' ? major * 100 : 0);

export function CreditPanel({ organizationID }: { organizationID: string }) {
  const format = useFormat();
  const { addCredit } = useAdminBillingChange(organizationID);
  const problemMessage = useProblemMessage();
  const [empty, setEmpty] = useState(false);
  // A new key after each success draws an empty form.
  const [round, setRound] = useState(0);
  const error = empty ? format('admin.org.credit.empty') : addCredit.error ? problemMessage(addCredit.error) : null;
  return (
    <section className="panel admin-panel" aria-label={format('admin.org.credit.title')}>
      <FormRenderer
        key={round}
        definition={adminCreditForm}
        validate={validateAdminCredit}
        headingLevel={3}
        intro={<p className="form-intro muted">{format('admin.org.credit.intro')}</p>}
        busy={addCredit.isPending}
        error={error}
        onSubmit={async (values) => {
          const credit = { amount: minor(values.amount), nisAmount: minor(values.nisAmount) };
          if (credit.amount + credit.nisAmount === 0) return setEmpty(true);
          setEmpty(false);
          try {
            await addCredit.mutateAsync(credit);
            void notify({ kind: 'success', title: format('billing.creditAdded') });
            addCredit.reset();
            setRound((n) => n + 1);
          } catch {
            // shown by the form
          }
        }}
      />
    </section>
  );
}
