/**
 * The item page's menu: in the single-item view the collection's CSV and settings; otherwise
 * "Close after saving", Duplicate (a saved top-level item) and Delete, as the person's rights allow.
 */
import { useNavigate } from 'react-router';
import { Check, MoreHorizontal } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import type { ItemFormSession } from '../../../renderers/fields/ItemFormView.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { ProjectScope } from '../../api/content.ts';
import { useContentApi } from '../../api/content-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useProjectActions, useProjectPath } from '../project/project-context.ts';
import { saveCsv } from '../items/save-csv.ts';

export interface ItemPageMenuProps {
  session: ItemFormSession;
  scope: ProjectScope;
  collectionID: string;
  singleView: boolean;
  isNested: boolean;
}

export function ItemPageMenu({ session, scope, collectionID, singleView, isNested }: ItemPageMenuProps) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const navigate = useNavigate();
  const path = useProjectPath();
  const actions = useProjectActions();
  const api = useContentApi();
  const { context, send, isNew, editable } = session;

  const downloadCsv = async () => {
    try {
      const blob = await api.itemsCsv(scope, collectionID, {});
      saveCsv(blob, collectionID);
    } catch (error) {
      void notify({ kind: 'error', title: format('item.downloadFailed'), description: problemMessage(error) });
    }
  };

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-button" aria-label={format('item.menu')} disabled={session.loading}>
        <MoreHorizontal aria-hidden="true" size={20} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          {singleView ? (
            <>
              <DropdownMenu.Item className="menu-item" onSelect={() => void downloadCsv()}>
                {format('item.downloadCsv')}
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu-item" onSelect={() => navigate(path('editCollection', { collectionID }))}>
                {format('item.collectionSettings')}
              </DropdownMenu.Item>
            </>
          ) : (
            <>
              <DropdownMenu.CheckboxItem
                className="menu-item menu-item-check"
                checked={context.closeAfterSaving}
                onSelect={(event) => event.preventDefault()}
                onCheckedChange={(value) => send({ type: 'SET_CLOSE_AFTER_SAVING', value: value === true })}
              >
                <span className="menu-check-box" aria-hidden="true">
                  <DropdownMenu.ItemIndicator>
                    <Check size={14} />
                  </DropdownMenu.ItemIndicator>
                </span>
                {format('item.closeAfterSaving')}
              </DropdownMenu.CheckboxItem>
              {!isNew && !isNested && actions.create ? (
                <DropdownMenu.Item className="menu-item" disabled={!editable} onSelect={() => send({ type: 'DUPLICATE' })}>
                  {format('item.duplicate')}
                </DropdownMenu.Item>
              ) : null}
              {!isNew && actions.delete ? (
                <DropdownMenu.Item className="menu-item menu-item-danger" disabled={!editable} onSelect={() => send({ type: 'DELETE' })}>
                  {format('item.delete')}
                </DropdownMenu.Item>
              ) : null}
            </>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
