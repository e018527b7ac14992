/**
 * A user group's rights: a table, one row per collection, one column per
 * right (create, read, update, delete) and "Associated items only". Native checkboxes, so Tab,
 * Space and screen readers work as everywhere; the arrow keys also move between the cells.
 */
import type { KeyboardEvent } from 'react';
import { groupColumnLabels, groupMatrixColumns, permissionOf, type GroupMatrixColumn, type GroupPermission } from '../../../definitions/user-groups.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface GroupRightsMatrixProps {
  /** Names the table (the group's heading). */
  labelledBy: string;
  describedBy?: string;
  collections: readonly { id: string; name: string }[];
  permissions: readonly GroupPermission[];
  disabled?: boolean;
  onToggle: (collection: string, column: GroupMatrixColumn) => void;
}

const moves: Readonly<Record<string, [number, number]>> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

export function GroupRightsMatrix({ labelledBy, describedBy, collections, permissions, disabled = false, onToggle }: GroupRightsMatrixProps) {
  const format = useFormat();

  /** Arrow keys move focus to the neighbouring checkbox (Tab still walks them in order). */
  const move = (event: KeyboardEvent<HTMLTableElement>) => {
    const step = moves[event.key];
    const target = event.target as HTMLElement;
    const row = Number(target.dataset.row);
    const column = Number(target.dataset.column);
    if (!step || Number.isNaN(row) || Number.isNaN(column)) return;
    const next = event.currentTarget.querySelector<HTMLInputElement>(`input[data-row="${row + step[0]}"][data-column="${column + step[1]}"]`);
    if (!next) return;
    event.preventDefault();
    next.focus();
  };

  return (
    <div className="table-scroll">
      <table className="table table-compact auth-matrix" aria-labelledby={labelledBy} aria-describedby={describedBy} onKeyDown={move}>
        <thead>
          <tr>
            <th scope="col">{format('userGroups.collection')}</th>
            {groupMatrixColumns.map((column) => (
              <th scope="col" key={column}>
                {format(groupColumnLabels[column])}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {collections.map((collection, row) => {
            const rights = permissionOf(permissions, collection.id);
            return (
              <tr key={collection.id}>
                <th scope="row">{collection.name}</th>
                {groupMatrixColumns.map((column, index) => (
                  <td key={column} className="auth-matrix-cell">
                    <input
                      type="checkbox"
                      className="auth-checkbox"
                      data-row={row}
                      data-column={index}
                      checked={rights[column]}
                      disabled={disabled}
                      aria-label={format('token.flagIn', { flag: format(groupColumnLabels[column]), collection: collection.name })}
                      onChange={() => onToggle(collection.id, column)}
                    />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
