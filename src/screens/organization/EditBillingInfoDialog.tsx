/**
 * Edit Billing Info: billing e-mail, address, city, country (default US), postcode, frequency.
 * Save says "Billing Info Updated". "Save & Setup Credit Card" needs the country and the billing
 * e-mail (disabled otherwise); with the city empty it warns "Billing Address must be set before
 * setting up credit card details" and saves nothing, else it saves and opens Setup Credit Card.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type FieldValues } from 'react-hook-form';
import billingInfoForm from '../../../definitions/forms/billing-info.ts';
import validateBillingInfo from '../../../definitions/forms/billing-info.ts?validator';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { isSubmitBlocked } from '../../../renderers/forms/prepare-values.ts';
import { standaloneResolver, type FormValues } from '../../../renderers/forms/standalone-resolver.ts';
import { FormField } from '../../../renderers/forms/FormField.tsx';
import type { DataOption } from '../../../renderers/forms/widgets/types.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { BillingDetails, BillingDetailsInput } from '../../api/billing.ts';
import { useSaveBillingDetails } from '../../api/billing-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { countryOptions, defaultCountry } from './billing-countries.ts';

type Intent = 'save' | 'card';

/** The form's values from the account (country US when none is set). */
export function billingInfoValues(details: BillingDetails | undefined): Record<string, string> {
  return {
    billingEmail: details?.billingEmail ?? '',
    address: details?.billingAddress.address ?? '',
    city: details?.billingAddress.city ?? '',
    country: details?.billingAddress.country || defaultCountry,
    postcode: details?.billingAddress.postcode ?? '',
    billingFrequency: String(details?.billingFrequency ?? 1),
  };
}

/** The form's valid values as the wire's BillingDetailsInput (address fields nested, frequency a number). */
export function billingInfoInput(values: FormValues): BillingDetailsInput {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : '');
  return {
    billingEmail: text('billingEmail'),
    billingAddress: { address: text('address'), city: text('city'), country: text('country'), postcode: text('postcode') },
    billingFrequency: text('billingFrequency') === '2' ? 2 : 1,
  };
}

export interface BillingInfoFormProps {
  organizationID: string;
  details: BillingDetails | undefined;
  labelledBy: string;
  /** Saved: `card` when the person chose Save & Setup Credit Card. */
  onSaved: (intent: Intent) => void;
  onCancel: () => void;
  /** Offer Save & Setup Credit Card (not when the card dialog itself asks for the address). */
  offerCard?: boolean;
}

export function BillingInfoForm({ organizationID, details, labelledBy, onSaved, onCancel, offerCard = true }: BillingInfoFormProps) {
  const format = useFormat();
  const baseId = useId();
  const save = useSaveBillingDetails(organizationID);
  const problemMessage = useProblemMessage();
  const intent = useRef<Intent>('save');
  const [addressWarning, setAddressWarning] = useState(false);
  const resolver = useMemo(() => standaloneResolver(validateBillingInfo, format, billingInfoForm), [format]);
  const initial = useMemo(() => billingInfoValues(details), [details]);
  const { register, handleSubmit, formState, control, setFocus } = useForm<FieldValues>({ resolver, defaultValues: initial });
  const current = { ...initial, ...(useWatch({ control }) as FieldValues) };
  const blocked = isSubmitBlocked(billingInfoForm, current);
  const required = new Set(billingInfoForm.schema.required ?? []);
  const options: Record<string, readonly DataOption[]> = useMemo(
    () => ({
      country: countryOptions(),
      billingFrequency: [
        { value: '1', text: format('billing.frequency.1') },
        { value: '2', text: format('billing.frequency.2') },
      ],
    }),
    [format],
  );

  const submit = handleSubmit(async (values) => {
    if (save.isPending) return;
    const input = billingInfoInput(values as FormValues);
    const chosen = intent.current;
    if (chosen === 'card' && input.billingAddress.city === '') {
      setAddressWarning(true);
      setFocus('city');
      return;
    }
    setAddressWarning(false);
    try {
      await save.mutateAsync(input);
    } catch {
      return; // shown above the fields
    }
    void notify({ kind: 'success', title: format('billing.updated') });
    onSaved(chosen);
  });
  const warningId = `${baseId}-address-warning`;

  return (
    <form className="form billing-info-form" aria-labelledby={labelledBy} noValidate onSubmit={submit} data-form={billingInfoForm.id}>
      {save.error ? (
        <div role="alert" className="form-alert">
          <strong>{format('billing.updateFailed')}</strong> {problemMessage(save.error)}
        </div>
      ) : null}
      {billingInfoForm.fields.map((field) => (
        <FormField
          key={field.name}
          field={field}
          id={`${baseId}-${field.name}`}
          registration={register(field.name)}
          control={control}
          required={required.has(field.name)}
          options={options[field.name]}
          error={formState.errors[field.name]?.message as string | undefined}
          alsoDescribedBy={field.name === 'city' && addressWarning ? warningId : undefined}
        />
      ))}
      {addressWarning ? (
        <p id={warningId} role="alert" className="callout-warning">
          {format('billing.addressRequired')}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          {format('form.cancel')}
        </button>
        <button type="submit" className="button" aria-disabled={save.isPending || undefined} disabled={blocked} onClick={() => (intent.current = 'save')}>
          {format(save.isPending ? billingInfoForm.submitting : billingInfoForm.submit)}
        </button>
        {offerCard ? (
          <button
            type="submit"
            className="button button-primary"
            aria-disabled={save.isPending || undefined}
            disabled={blocked}
            onClick={() => (intent.current = 'card')}
          >
            {format('billing.edit.saveAndCard')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

export interface EditBillingInfoDialogProps {
  organizationID: string;
  details: BillingDetails | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After Save & Setup Credit Card saved: open the card dialog. */
  onSetupCard: () => void;
}

export function EditBillingInfoDialog({ organizationID, details, open, onOpenChange, onSetupCard }: EditBillingInfoDialogProps) {
  const format = useFormat();
  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} name="editBillingInfo" title={format('billing.edit.title')} widthPx={520}>
      {({ titleId }) =>
        open ? (
          <BillingInfoForm
            organizationID={organizationID}
            details={details}
            labelledBy={titleId}
            onCancel={() => onOpenChange(false)}
            onSaved={(intent) => {
              onOpenChange(false);
              if (intent === 'card') onSetupCard();
            }}
          />
        ) : null
      }
    </ModalDialog>
  );
}
