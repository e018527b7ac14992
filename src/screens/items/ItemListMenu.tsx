/**
 * The item list's menu: Column Settings, Download CSV, Import Items (a top-level list, with the
 * right to create items), Select/Unselect, Collection Settings, Make collection sortable (with the
 * right to change the collection), the layouts and, for a layout other than the table, its settings.
 */
import { MoreHorizontal } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { layoutChoices, layoutKindOf, layoutLabelKey } from '../../../renderers/layouts/index.ts';
import type { LayoutKind } from '../../../renderers/layouts/types.ts';
import '../../../definitions/messages/areas/item-import.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface ItemListMenuProps {
  ownFields: boolean;
  multiSelect: boolean;
  count: number;
  canUpdate: boolean;
  /** A top-level list whose items the person may create: Import Items is offered. */
  canImport: boolean;
  ranking: boolean;
  layoutKind: LayoutKind;
  onColumns: () => void;
  onDownloadCsv: () => void;
  onImport: () => void;
  onToggleSelect: () => void;
  onCollectionSettings: () => void;
  onMakeSortable: () => void;
  onLayout: (kind: LayoutKind) => void;
  onLayoutSettings: () => void;
}

export function ItemListMenu(props: ItemListMenuProps) {
  const format = useFormat();
  const { ownFields, multiSelect, count, canUpdate, layoutKind } = props;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-button" aria-label={format('itemList.menu')}>
        <MoreHorizontal aria-hidden="true" size={20} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          <DropdownMenu.Item className="menu-item" disabled={!ownFields} onSelect={props.onColumns}>
            {format('itemList.columnSettings')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={props.onDownloadCsv}>
            {format('itemList.downloadCsv')}
          </DropdownMenu.Item>
          {props.canImport ? (
            <DropdownMenu.Item className="menu-item" disabled={!ownFields} onSelect={props.onImport}>
              {format('itemImport.menu')}
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Item className="menu-item" disabled={!multiSelect && count === 0} onSelect={props.onToggleSelect}>
            {format(multiSelect ? 'itemList.unselect' : 'itemList.select')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={props.onCollectionSettings}>
            {format('itemList.collectionSettings')}
          </DropdownMenu.Item>
          {canUpdate ? (
            <DropdownMenu.Item className="menu-item" disabled={props.ranking} onSelect={props.onMakeSortable}>
              {format('itemList.makeSortable')}
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Label className="menu-label">{format('itemList.layout')}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={layoutKind} onValueChange={(value) => props.onLayout(layoutKindOf(value) ?? 'table')}>
            {layoutChoices.map((kind) => (
              <DropdownMenu.RadioItem key={kind} className="menu-item" value={kind}>
                {format(layoutLabelKey(kind))}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          {layoutKind !== 'table' ? (
            <DropdownMenu.Item className="menu-item" disabled={!canUpdate || !ownFields} onSelect={props.onLayoutSettings}>
              {format('layout.settings.menu')}
            </DropdownMenu.Item>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
