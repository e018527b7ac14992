/**
 * The item table's columns: one per visible column field, then id, last updated and created, with
 * the drag handle first while items can be moved; the person's hidden and pinned columns (kept in
 * this browser, column-settings.ts) applied; and how the handle and announcements name an item.
 */
import { createElement, useCallback, useMemo, useState, type ComponentType } from 'react';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { fieldType, fieldTypes, textField, titleField, type SchemaField } from '../../../definitions/field-types/index.ts';
import { displayFor, type DisplayProps } from '../../../renderers/fields/displays.ts';
import { DirectedDisplay } from '../../../renderers/fields/DirectedDisplay.tsx';
import type { TextDirection } from '../../../renderers/fields/editor-environment.ts';
import { DateDisplay } from '../../../renderers/fields/date/Display.tsx';
import { TextDisplay } from '../../../renderers/fields/TextDisplay.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { Collection, Item } from '../../api/content.ts';
import type { ColumnChoice } from './ColumnSettingsDialog.tsx';
import { loadColumnSettings, saveColumnSettings, type ColumnScope, type ColumnSettings } from './column-settings.ts';
import { columnWidth, idColumnWidth } from './column-widths.ts';
import { RowHandleCell } from './RowHandle.tsx';

const isColumnField = (field: SchemaField) => field.visible !== false && fieldType(field.type)?.storage.kind === 'column';

function cellOf(Display: ComponentType<DisplayProps>, field: SchemaField, direction?: TextDirection) {
  return function Cell(params: ICellRendererParams<Item>) {
    return params.data ? createElement(DirectedDisplay, { Display, value: params.value, field, direction }) : null;
  };
}

const metaField = (slug: string, name: string, code: number): SchemaField => ({ id: slug, slug, name, type: code });

/** The drag handle's column, pinned left. */
const handleColumn: ColDef<Item> = {
  colId: '_drag',
  cellRenderer: RowHandleCell,
  cellClass: 'cell-handle',
  sortable: false,
  resizable: false,
  width: 84,
  minWidth: 84,
  maxWidth: 84,
  pinned: 'left',
  valueGetter: () => '',
};

export function useItemColumns(collection: Collection, columnScope: ColumnScope, dragColumn: boolean) {
  const format = useFormat();
  const schema = collection.schema;
  const fields = useMemo(() => schema.filter(isColumnField), [schema]);
  const [columnSettings, setColumnSettings] = useState<ColumnSettings>(() => loadColumnSettings(columnScope));
  const changeColumns = (next: ColumnSettings) => {
    setColumnSettings(next);
    saveColumnSettings(columnScope, next);
  };

  const columnChoices: ColumnChoice[] = useMemo(
    () => [
      ...fields.map((field) => ({ id: field.slug, name: field.name })),
      { id: '_id', name: format('itemList.col.id') },
      { id: '_lastUpdatedDate', name: format('itemList.col.lastUpdated') },
      { id: '_createdDate', name: format('itemList.col.created') },
    ],
    [fields, format],
  );

  // How a person knows an item in the handle's name and the announcements: its primary field, else
  // its first text column, else its id.
  const nameField = useMemo(() => titleField(fields), [fields]);
  const itemName = useCallback(
    (item: Item) => {
      const value = nameField ? item[nameField.slug] : undefined;
      return typeof value === 'string' && value.trim() !== '' ? value : item._id;
    },
    [nameField],
  );

  const columnDefs: ColDef<Item>[] = useMemo(() => {
    // The system date columns are drawn and sized as fields of the registry's date type.
    const dateType = fieldTypes.find((type) => type.valueKind === 'date')!.code;
    const dateColumn = (colId: '_lastUpdatedDate' | '_createdDate', headerName: string, name: string): ColDef<Item> => ({
      colId,
      width: columnWidth(dateType, headerName),
      headerName,
      valueGetter: (p) => p.data?.[colId],
      cellRenderer: cellOf(DateDisplay, metaField(colId, name, dateType)),
      sortable: true,
    });
    const defs: ColDef<Item>[] = [
      ...fields.map((field) => ({
        colId: field.slug,
        headerName: field.name,
        valueGetter: (p: { data: Item | undefined }) => p.data?.[field.slug],
        cellRenderer: cellOf(displayFor(field), field, collection.rtlDirection ? 'rtl' : 'ltr'),
        sortable: fieldType(field.type)?.capabilities.sortable ?? false,
        width: columnWidth(field.type, field.name),
      })),
      {
        colId: '_id',
        headerName: format('itemList.col.id'),
        valueGetter: (p) => p.data?._id,
        cellRenderer: cellOf(TextDisplay, textField('_id', 'ID')),
        sortable: true,
        cellClass: 'cell-mono',
        width: idColumnWidth,
      },
      dateColumn('_lastUpdatedDate', format('itemList.col.lastUpdated'), 'Last Updated'),
      dateColumn('_createdDate', format('itemList.col.created'), 'Created Date'),
    ];
    if (dragColumn) defs.unshift({ ...handleColumn, headerName: format('itemList.col.order') });
    return defs.map((def) => ({
      ...def,
      hide: columnSettings.hidden.includes(def.colId ?? ''),
      pinned: def.colId === '_drag' ? 'left' : (columnSettings.pinned[def.colId ?? ''] ?? null),
    }));
  }, [fields, format, columnSettings, dragColumn, collection.rtlDirection]);

  return { columnDefs, columnChoices, columnSettings, changeColumns, itemName };
}
