/**
 * The list's footer: up to 6 page links with previous and next, and Per Page
 * 20/50/100/300 or a custom number (digits only).
 */
import { useId, useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { customPerPage, digitsOnly, pageCount, pageLinks, perPageChoices } from './paging.ts';

export interface ListFooterProps {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}

export function ListFooter({ page, perPage, total, onPage, onPerPage }: ListFooterProps) {
  const format = useFormat();
  const pages = pageCount(total, perPage);
  const from = total === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return (
    <div className="list-footer">
      <nav className="pagination" aria-label={format('itemList.pages')}>
        <button type="button" className="icon-button" aria-label={format('itemList.previous')} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft aria-hidden="true" size={18} />
        </button>
        <ul>
          {pageLinks(page, pages).map((n) => (
            <li key={n}>
              <button
                type="button"
                className="page-link"
                aria-label={format('itemList.page', { page: n })}
                aria-current={n === page ? 'page' : undefined}
                onClick={() => onPage(n)}
              >
                {n}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="icon-button" aria-label={format('itemList.next')} disabled={page >= pages} onClick={() => onPage(page + 1)}>
          <ChevronRight aria-hidden="true" size={18} />
        </button>
        <span className="muted list-range">{format('itemList.range', { from, to, total })}</span>
      </nav>
      <PerPage perPage={perPage} onPerPage={onPerPage} />
    </div>
  );
}

const custom = 'custom';

export function PerPage({ perPage, onPerPage }: { perPage: number; onPerPage: (perPage: number) => void }) {
  const format = useFormat();
  const id = useId();
  const listed = (perPageChoices as readonly number[]).includes(perPage);
  const [customOpen, setCustomOpen] = useState(!listed);
  const [text, setText] = useState(listed ? '' : String(perPage));
  const apply = () => {
    const n = customPerPage(text);
    if (n !== undefined && n !== perPage) onPerPage(n);
  };
  return (
    <div className="per-page">
      <label htmlFor={`${id}-select`} className="per-page-label">
        {format('itemList.perPage')}
      </label>
      <select
        id={`${id}-select`}
        className="input"
        value={customOpen ? custom : String(perPage)}
        onChange={(event) => {
          if (event.target.value === custom) {
            setCustomOpen(true);
            setText(String(perPage));
            return;
          }
          setCustomOpen(false);
          onPerPage(Number(event.target.value));
        }}
      >
        {perPageChoices.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
        <option value={custom}>{format('itemList.perPageCustom')}</option>
      </select>
      {customOpen ? (
        <input
          className="input per-page-custom"
          aria-label={format('itemList.perPageCustomLabel')}
          inputMode="numeric"
          value={text}
          maxLength={4}
          onChange={(event) => setText(digitsOnly(event.target.value))}
          onBlur={apply}
          onKeyDown={(event) => {
            if (event.key === 'Enter') apply();
          }}
        />
      ) : null}
    </div>
  );
}
