/** Column Settings: show/hide and pin per column, kept per organization, project, collection and nested path. */
import '@testing-library/jest-dom/vitest';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ColumnSettingsDialog } from '../../src/screens/items/ColumnSettingsDialog.tsx';
import { columnSettingsKey, loadColumnSettings, saveColumnSettings, type ColumnScope, type ColumnSettings } from '../../src/screens/items/column-settings.ts';

afterEach(cleanup);
beforeEach(() => localStorage.clear());

const scope: ColumnScope = { organizationID: 'org', projectID: 'proj', collectionID: 'posts', nestedPath: '' };

function Harness() {
  const [settings, setSettings] = useState<ColumnSettings>(() => loadColumnSettings(scope));
  return (
    <ColumnSettingsDialog
      open
      onOpenChange={() => undefined}
      columns={[
        { id: 'title', name: 'Title' },
        { id: '_id', name: 'ID' },
      ]}
      settings={settings}
      onChange={(next) => {
        setSettings(next);
        saveColumnSettings(scope, next);
      }}
    />
  );
}

describe('column settings', () => {
  it('keeps settings apart per organization, project, collection and nested path', () => {
    saveColumnSettings(scope, { hidden: ['title'], pinned: { _id: 'left' } });
    expect(loadColumnSettings(scope)).toEqual({ hidden: ['title'], pinned: { _id: 'left' } });
    expect(loadColumnSettings({ ...scope, collectionID: 'pages' })).toEqual({ hidden: [], pinned: {} });
    expect(loadColumnSettings({ ...scope, projectID: 'other' })).toEqual({ hidden: [], pinned: {} });
    expect(loadColumnSettings({ ...scope, nestedPath: 'posts.abc.chapters' })).toEqual({ hidden: [], pinned: {} });
    expect(columnSettingsKey(scope)).not.toBe(columnSettingsKey({ ...scope, nestedPath: 'x' }));
  });

  it('ignores unreadable stored settings', () => {
    localStorage.setItem(columnSettingsKey(scope), '{not json');
    expect(loadColumnSettings(scope)).toEqual({ hidden: [], pinned: {} });
    localStorage.setItem(columnSettingsKey(scope), JSON.stringify({ hidden: [3, 'a'], pinned: { a: 'middle', b: 'right' } }));
    expect(loadColumnSettings(scope)).toEqual({ hidden: ['a'], pinned: { b: 'right' } });
  });

  it('hides and pins columns from the dialog and finds them so after a reload', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByRole('dialog', { name: 'Column Settings' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Show Title' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Pin ID' }), 'Left');
    expect(loadColumnSettings(scope)).toEqual({ hidden: ['title'], pinned: { _id: 'left' } });
    cleanup();
    render(<Harness />);
    expect(screen.getByRole('checkbox', { name: 'Show Title' })).not.toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Pin ID' })).toHaveValue('left');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(localStorage.getItem(columnSettingsKey(scope))).toBeNull();
  });
});
