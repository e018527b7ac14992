/** Add seats: a whole number above 0; the organization's seat count grows by it. */
import addSeatsForm from '../../../definitions/forms/add-seats.ts';
import validateAddSeats from '../../../definitions/forms/add-seats.ts?validator';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Organization } from '../../api/platform.ts';
import { useAddSeats } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';

export function AddSeatsDialog({ organization, open, onOpenChange }: { organization: Organization; open: boolean; onOpenChange: (open: boolean) => void }) {
  const format = useFormat();
  const add = useAddSeats(organization.id);
  const problemMessage = useProblemMessage();
  const close = (next: boolean) => {
    if (!next) add.reset();
    onOpenChange(next);
  };
  return (
    <ModalDialog
      open={open}
      onOpenChange={close}
      name="addSeats"
      title={format('seats.title')}
      description={format('seats.intro', { seats: organization.seats })}
    >
      {({ titleId }) => (
        <FormRenderer
          definition={addSeatsForm}
          validate={validateAddSeats}
          labelledBy={titleId}
          defaultValues={{ numberOfSeats: 1 }}
          busy={add.isPending}
          error={add.error ? problemMessage(add.error) : null}
          onCancel={() => close(false)}
          onSubmit={async (values) => {
            try {
              const { seats } = await add.mutateAsync(Number(values.numberOfSeats));
              void notify({ kind: 'success', title: format('seats.added', { seats }) });
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
