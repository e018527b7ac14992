/**
 * The Import Items dialog: the format comes from the file's name, the options go with the file,
 * progress shows while it goes up and Cancel aborts it (the dialog closes only through Cancel
 * meanwhile); a refused file lists its rows with their lines and says nothing was written; a
 * success counts the items and the skipped rows, tells the list, and forgets the file.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContentApi, ImportAnswer, ImportOptions } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { ApiError } from '../../src/api/errors.ts';
import { ImportItemsDialog } from '../../src/screens/items/ImportItemsDialog.tsx';

afterEach(cleanup);

const scope = { organizationID: 'org', projectID: 'proj' };

function open(importItems: Mock) {
  const onImported = vi.fn();
  const onClose = vi.fn();
  const api = { importItems } as unknown as ContentApi;
  render(
    <ContentApiProvider value={api}>
      <ImportItemsDialog scope={scope} collectionID="posts" collectionName="Posts" onClose={onClose} onImported={onImported} />
    </ContentApiProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Import items into Posts' });
  return { dialog, onImported, onClose, options: () => importItems.mock.calls.at(-1)![3] as ImportOptions };
}

describe('Import Items dialog', () => {
  it('takes the format from the name, sends the options, shows progress, and Cancel aborts', async () => {
    const user = userEvent.setup();
    const importItems = vi.fn(() => new Promise<ImportAnswer>(() => undefined));
    const { dialog, options } = open(importItems);
    const importButton = within(dialog).getByRole('button', { name: 'Import' });
    expect(importButton).toBeDisabled();
    await user.upload(within(dialog).getByLabelText('File'), new File(['{"title":"a"}\n'], 'posts.jsonl'));
    expect(within(dialog).getByRole('combobox', { name: 'Format' })).toHaveValue('ndjson');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Ignore unknown columns' }));
    await user.click(importButton);

    expect(importItems).toHaveBeenCalledWith(scope, 'posts', expect.objectContaining({ name: 'posts.jsonl' }), expect.objectContaining({ format: 'ndjson', skipBadRows: false, ignoreUnknown: true }));
    options().onProgress!(50, 200);
    const bar = await within(dialog).findByRole('progressbar', { name: 'Import progress' });
    expect(bar).toHaveAttribute('aria-valuetext', 'Sending posts.jsonl: 50 bytes of 200 bytes (25%)');
    // Meanwhile the dialog closes only through Cancel; the options stay as they were sent.
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['Cancel', 'Importing…']);
    expect(within(dialog).getByRole('checkbox', { name: 'Skip bad rows' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Importing…' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(options().signal!.aborted).toBe(true);
    expect(within(dialog).getByRole('status')).toHaveTextContent('Import cancelled: nothing was written.');
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
  });

  it('lists the rows of a refused file with their lines and says nothing was written', async () => {
    const user = userEvent.setup();
    const refused = new ApiError({
      status: 422,
      code: 'import_refused',
      detail: 'line 3: price must be a number',
      problem: {
        type: 'about:blank',
        title: 'Unprocessable Entity',
        status: 422,
        code: 'import_refused',
        detail: 'line 3: price must be a number',
        errors: [
          { line: 3, path: 'price', message: 'must be a number', code: 'notNumber' },
          { line: 5, path: '', message: 'has 3 cell(s) where the header has 2' },
        ],
      },
    });
    const importItems = vi.fn(async () => {
      throw refused;
    });
    const { dialog, onImported } = open(importItems);
    await user.upload(within(dialog).getByLabelText('File'), new File(['title,price\n'], 'posts.csv'));
    expect(within(dialog).getByRole('combobox', { name: 'Format' })).toHaveValue('csv');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    expect(await within(dialog).findByText(/^Nothing was imported/)).toBeInTheDocument();
    const rows = within(within(dialog).getByRole('table', { name: 'Rows not imported' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['RowFieldProblem', 'line 3pricemust be a number', 'line 5(the row)has 3 cell(s) where the header has 2']);
    expect(onImported).not.toHaveBeenCalled();
    // The file stays chosen: Skip bad rows and Import again.
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeEnabled();
  });

  it('counts the items imported and the rows skipped, tells the list, and forgets the file', async () => {
    const user = userEvent.setup();
    const importItems = vi.fn(async () => ({ importID: 'imp1', imported: 2, skipped: 1, errors: [{ line: 4, path: 'price', message: 'must be a number', code: 'notNumber' }] }));
    const { dialog, onImported, options } = open(importItems);
    const input = within(dialog).getByLabelText('File');
    await user.upload(input, new File(['[]'], 'posts.json'));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Skip bad rows' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    expect(await within(dialog).findByRole('status')).toHaveTextContent('2 items imported; 1 row skipped.');
    expect(options()).toMatchObject({ format: 'json', skipBadRows: true, ignoreUnknown: false });
    expect(onImported).toHaveBeenCalledTimes(1);
    expect(within(dialog).getByRole('table', { name: 'Rows not imported' })).toHaveTextContent('line 4');
    expect(input).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Done' })).toHaveFocus();
  });
});
