/** The next billing date: a date input, saved with `PUT billingDetails/billingDate` (a day, `YYYY-MM-DD`). */
import { useId, useState, type FormEvent } from 'react';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import { useAdminBillingChange } from '../../../api/admin-queries.ts';
import { useProblemMessage } from '../../../hooks/use-problem-message.ts';
import { billingDateRange } from '../../../../definitions/billing/billing-date.ts';
import { dayInputValue } from './day.ts';

const day = /^\d{4}-\d{2}-\d{2}$/;

export function BillingDatePanel({ organizationID, nextBillingDate }: { organizationID: string; nextBillingDate: string | null }) {
  const format = useFormat();
  const id = useId();
  const { setBillingDate } = useAdminBillingChange(organizationID);
  const problemMessage = useProblemMessage();
  const [value, setValue] = useState(dayInputValue(nextBillingDate));
  const [invalid, setInvalid] = useState(false);
  // The range the server allows, offered by the date picker; the server's refusal shows below the field.
  const range = billingDateRange(new Date());
  const error = invalid ? format('admin.org.billingDate.invalid') : setBillingDate.error ? problemMessage(setBillingDate.error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (setBillingDate.isPending) return;
    if (!day.test(value)) return setInvalid(true);
    setInvalid(false);
    setBillingDate.mutate(value, { onSuccess: () => void notify({ kind: 'success', title: format('admin.org.billingDate.saved') }) });
  };

  return (
    <section className="panel admin-panel" aria-labelledby={`${id}-title`}>
      <form className="form" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`} className="form-title">
          {format('admin.org.billingDate.title')}
        </h3>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-date`}>
            {format('admin.org.billingDate.label')}
          </label>
          <input
            id={`${id}-date`}
            className="input"
            type="date"
            value={value}
            min={range.earliest}
            max={range.latest}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            onChange={(event) => setValue(event.target.value)}
          />
          <p id={`${id}-hint`} className="field-help">
            {format('admin.org.billingDate.hint')}
          </p>
          {error ? (
            <p id={`${id}-error`} className="field-error">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button-primary" aria-disabled={setBillingDate.isPending || undefined}>
          {format('admin.org.billingDate.submit')}
        </button>
      </form>
    </section>
  );
}
