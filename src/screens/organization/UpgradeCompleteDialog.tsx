/**
 * The upgrade-complete thank-you: shown when organization settings open with `billingComplete`
 * (the card provider's page returned through /billingComplete) and after a plan change paid with
 * the card on file. It names the plan the organization is now on.
 */
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface UpgradeCompleteDialogProps {
  organizationName: string;
  planName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function UpgradeCompleteDialog({ organizationName, planName, open, onOpenChange }: UpgradeCompleteDialogProps) {
  const format = useFormat();
  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} name="upgradeComplete" title={format('plans.complete.title')}>
      <p>{format('plans.complete.body', { organization: organizationName, plan: planName })}</p>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={() => onOpenChange(false)}>
          {format('plans.complete.close')}
        </button>
      </div>
    </ModalDialog>
  );
}
