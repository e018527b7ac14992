/**
 * The list's header: the collection's name and item count (and, in a fold, the button closing the
 * list), then Delete N Items while selecting, New Item, and the list's menu given as children.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Plus, Trash2, X } from 'lucide-react';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface ItemListHeaderProps {
  headingId: string;
  name: string;
  count: number;
  /** In a fold: closes the nested list. */
  onClose?: (() => void) | undefined;
  /** While selecting with the right to delete: how many are selected. */
  deleting: { selected: number; onDelete: () => void } | null;
  /** Where New Item goes, when it is offered. */
  newItemTo: string | null;
  children: ReactNode;
}

export function ItemListHeader({ headingId, name, count, onClose, deleting, newItemTo, children }: ItemListHeaderProps) {
  const format = useFormat();
  return (
    <header className="item-list-header">
      <div className="item-list-title">
        {onClose ? (
          <button type="button" className="icon-button" aria-label={format('fold.close', { name })} onClick={onClose}>
            <X aria-hidden="true" size={20} />
          </button>
        ) : null}
        <h2 id={headingId}>{name}</h2>
        <span className="muted item-count" aria-live="polite">
          {format('itemList.count', { count })}
        </span>
      </div>
      <div className="item-list-actions">
        {deleting ? (
          <button type="button" className="button button-danger" disabled={deleting.selected === 0} onClick={deleting.onDelete}>
            <Trash2 aria-hidden="true" size={16} />
            {format('itemList.deleteItems', { count: deleting.selected })}
          </button>
        ) : null}
        {newItemTo ? (
          <Link className="button button-primary" to={newItemTo}>
            <Plus aria-hidden="true" size={16} />
            {format('itemList.newItem')}
          </Link>
        ) : null}
        {children}
      </div>
    </header>
  );
}
