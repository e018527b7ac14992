/** The message dialog renderer: a definition's title, text and actions, with radix's focus handling. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { apiLimitDialog } from '../../definitions/dialogs/api-limit.ts';
import type { DialogDefinition } from '../../definitions/dialogs/types.ts';
import { DialogRenderer } from '../../renderers/dialogs/DialogRenderer.tsx';

afterEach(cleanup);

function Harness({ definition, onAction }: { definition: DialogDefinition; onAction: (id: string) => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button">outside</button>
      <DialogRenderer definition={definition} open={open} onOpenChange={setOpen} onAction={onAction} />
    </>
  );
}

describe('DialogRenderer', () => {
  it('draws the API-limit dialog from its definition and reports the chosen action', async () => {
    const onAction = vi.fn();
    const user = userEvent.setup();
    render(<Harness definition={apiLimitDialog} onAction={onAction} />);
    const dialog = screen.getByRole('alertdialog', { name: 'API Limit Reached' });
    expect(dialog).toHaveAccessibleDescription(/reached, or is close to, a limit of its plan/);
    // The least destructive action takes the focus first (radix AlertDialog).
    expect(screen.getByRole('button', { name: 'Remind me in 5 minutes' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'See Plans' }));
    expect(onAction).toHaveBeenCalledWith('seePlans');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('keeps the focus inside while open and closes on Escape unless persistent', async () => {
    const user = userEvent.setup();
    render(<Harness definition={apiLimitDialog} onAction={() => {}} />);
    await user.tab();
    await user.tab();
    expect(screen.getByRole('alertdialog')).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    cleanup();
    render(<Harness definition={{ ...apiLimitDialog, persistent: true }} onAction={() => {}} />);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });
});
