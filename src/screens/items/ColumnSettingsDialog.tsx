/** Column Settings: show or hide and pin each column of the table. */
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { noColumnSettings, setHidden, setPin, type ColumnSettings, type Pin } from './column-settings.ts';

export interface ColumnChoice {
  id: string;
  name: string;
}

export interface ColumnSettingsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  columns: readonly ColumnChoice[];
  settings: ColumnSettings;
  onChange: (settings: ColumnSettings) => void;
}

export function ColumnSettingsDialog({ open, onOpenChange, columns, settings, onChange }: ColumnSettingsDialogProps) {
  const format = useFormat();
  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} title={format('itemList.columnSettings')} name="columnSettings" widthPx={520}>
      <table className="column-settings">
        <thead>
          <tr>
            <th scope="col">{format('itemList.columns.column')}</th>
            <th scope="col">{format('itemList.columns.show')}</th>
            <th scope="col">{format('itemList.columns.pin')}</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((column) => (
            <tr key={column.id}>
              <th scope="row">{column.name}</th>
              <td>
                <input
                  type="checkbox"
                  aria-label={format('itemList.columns.showColumn', { column: column.name })}
                  checked={!settings.hidden.includes(column.id)}
                  onChange={(event) => onChange(setHidden(settings, column.id, !event.target.checked))}
                />
              </td>
              <td>
                <select
                  className="input"
                  aria-label={format('itemList.columns.pinColumn', { column: column.name })}
                  value={settings.pinned[column.id] ?? ''}
                  onChange={(event) => onChange(setPin(settings, column.id, (event.target.value || null) as Pin | null))}
                >
                  <option value="">{format('itemList.columns.pinNone')}</option>
                  <option value="left">{format('itemList.columns.pinLeft')}</option>
                  <option value="right">{format('itemList.columns.pinRight')}</option>
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onChange(noColumnSettings)}>
          {format('itemList.columns.reset')}
        </button>
        <button type="button" className="button button-primary" onClick={() => onOpenChange(false)}>
          {format('itemList.columns.done')}
        </button>
      </div>
    </ModalDialog>
  );
}
