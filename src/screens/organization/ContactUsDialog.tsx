/**
 * Contact Us: name, e-mail and phone number, sent to the installation's sales address
 * (POST /api/organization/{org}/contactUs); "Contact request sent. One of our representatives
 * will in touch with you soon" on success.
 */
import contactUsForm from '../../../definitions/forms/contact-us.ts';
import validateContactUs from '../../../definitions/forms/contact-us.ts?validator';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { useContactUs } from '../../api/billing-queries.ts';
import { useMe } from '../../api/queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { problemFieldErrors } from '../../shell/problem-field-errors.ts';

export interface ContactUsDialogProps {
  organizationID: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ContactUsDialog({ organizationID, open, onOpenChange }: ContactUsDialogProps) {
  const format = useFormat();
  const send = useContactUs(organizationID);
  const me = useMe().data;
  const problemMessage = useProblemMessage();
  const close = (next: boolean) => {
    if (!next) send.reset();
    onOpenChange(next);
  };
  return (
    <ModalDialog open={open} onOpenChange={close} name="contactUs" title={format('contact.title')} description={format('contact.intro')}>
      {({ titleId }) => (
        <FormRenderer
          definition={contactUsForm}
          validate={validateContactUs}
          labelledBy={titleId}
          defaultValues={{ name: me?.username ?? '', email: me?.email ?? '', number: '' }}
          busy={send.isPending}
          error={send.error ? problemMessage(send.error) : null}
          fieldErrors={problemFieldErrors(send.error, contactUsForm)}
          onCancel={() => close(false)}
          onSubmit={async (values) => {
            try {
              await send.mutateAsync({ name: String(values.name), email: String(values.email), number: String(values.number) });
              void notify({ kind: 'success', title: format('contact.sent') });
              close(false);
            } catch {
              // shown by the form
            }
          }}
        />
      )}
    </ModalDialog>
  );
}
