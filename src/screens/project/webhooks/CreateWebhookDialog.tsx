/**
 * The Create Webhook dialog: 400 px wide; Create is enabled only
 * with a name, an address and a method. On success the form clears, the dialog closes, "Webhook
 * created successfully" shows and the new webhook opens with its signing secret, shown this once.
 * A refusal shows the server's reason in the dialog; any other failure "Unknown error creating webhook".
 */
import { useState } from 'react';
import { ui } from '../../../../definitions/constants.ts';
import { ModalDialog } from '../../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import { isApiError } from '../../../api/errors.ts';
import { problemText } from '../../../hooks/problem-text.ts';
import { useCreateWebhook, type CreatedWebhook } from '../../../api/webhooks.ts';
import { draftComplete, emptyDraft, WebhookFields, type CollectionLike } from './WebhookFields.tsx';

export function CreateWebhookDialog({
  open,
  onOpenChange,
  organizationID,
  projectID,
  collections,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  organizationID: string;
  projectID: string;
  collections: readonly CollectionLike[];
  onCreated: (webhook: CreatedWebhook) => void;
}) {
  const format = useFormat();
  const [draft, setDraft] = useState(emptyDraft);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateWebhook(organizationID, projectID);

  const submit = () => {
    if (!draftComplete(draft) || create.isPending) return;
    setProblem(null);
    create.mutate(draft, {
      onSuccess: (webhook) => {
        setDraft(emptyDraft());
        onOpenChange(false);
        void notify({ kind: 'success', title: format('webhook.created') });
        onCreated(webhook);
      },
      onError: (error) => {
        if (isApiError(error) && error.status === 400 && error.detail) setProblem(problemText(error, format));
        else void notify({ kind: 'error', title: format('webhook.createFailed') });
      },
    });
  };

  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} title={format('webhook.create.title')} widthPx={ui.createWebhookDialogWidthPx} name="create-webhook">
      {({ titleId }) => (
        <form
          className="form webhook-form"
          aria-labelledby={titleId}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <WebhookFields draft={draft} onChange={setDraft} collections={collections} />
          {problem ? (
            <p className="form-alert" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="button" className="button" onClick={() => onOpenChange(false)}>
              {format('webhook.cancel')}
            </button>
            <button type="submit" className="button button-primary" disabled={!draftComplete(draft) || create.isPending}>
              {format('webhook.create.submit')}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
