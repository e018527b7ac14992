/**
 * A Danger Zone panel: an explanation and a delete button that opens a 500 px
 * dialog where the exact name must be typed. Organization and project settings share it; the
 * screen gives the texts and runs the deletion.
 */
import { useState } from 'react';
import { ui } from '../../definitions/constants.ts';
import { ConfirmNameDialog } from '../../renderers/dialogs/ConfirmNameDialog.tsx';
import { useFormat } from '../../renderers/messages/use-format.ts';

export interface DeleteByNameSectionProps {
  /** The heading's level where the panel sits (the organization page's sections are h2, the project's h3). */
  headingLevel: 2 | 3;
  headingId: string;
  heading: string;
  explain: string;
  buttonLabel: string;
  /** The dialog's name for the dialog renderer and tests. */
  dialogName: string;
  title: string;
  body: string;
  inputLabel: string;
  /** The name to type, exactly. */
  expected: string;
  mismatchMessage: string;
  confirmLabel: string;
  busy: boolean;
  /** Runs the deletion once the name matches; `close` shuts the dialog (when it succeeded). */
  onConfirm: (close: () => void) => void;
}

export function DeleteByNameSection(props: DeleteByNameSectionProps) {
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const Heading = props.headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="panel panel-danger" aria-labelledby={props.headingId}>
      <Heading id={props.headingId}>{props.heading}</Heading>
      <p>{props.explain}</p>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        {props.buttonLabel}
      </button>
      <ConfirmNameDialog
        open={open}
        onOpenChange={setOpen}
        name={props.dialogName}
        widthPx={ui.deleteDialogWidthPx}
        title={props.title}
        body={props.body}
        inputLabel={props.inputLabel}
        expected={props.expected}
        mismatchMessage={props.mismatchMessage}
        confirmLabel={props.confirmLabel}
        busyLabel={format('form.deleting')}
        cancelLabel={format('form.cancel')}
        busy={props.busy}
        onConfirm={() => props.onConfirm(() => setOpen(false))}
      />
    </section>
  );
}
