/** The foot of the plan dialogs (Change Plan, Confirm Free Plan): the change's refusal, Cancel and the confirm button. */
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';

export interface PlanChangeActionsProps {
  error: unknown;
  pending: boolean;
  /** Confirming is not possible yet (the summary is still loading). */
  disabled?: boolean;
  confirmLabel: MessageKey;
  confirmingLabel: MessageKey;
  onCancel: () => void;
  onConfirm: () => void;
}

export function PlanChangeActions({ error, pending, disabled = false, confirmLabel, confirmingLabel, onCancel, onConfirm }: PlanChangeActionsProps) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  return (
    <>
      {error ? (
        <p role="alert" className="form-alert">
          {problemMessage(error)}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel}>
          {format('form.cancel')}
        </button>
        <button type="button" className="button button-primary" disabled={pending || disabled} onClick={onConfirm}>
          {format(pending ? confirmingLabel : confirmLabel)}
        </button>
      </div>
    </>
  );
}
