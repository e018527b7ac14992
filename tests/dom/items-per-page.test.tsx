/** The list footer: up to 6 page links and Per Page with a digits-only custom entry. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ListFooter } from '../../src/screens/items/ListFooter.tsx';
import { customPerPage, pageLinks } from '../../src/screens/items/paging.ts';

afterEach(cleanup);

describe('paging', () => {
  it('shows at most 6 page links around the current page', () => {
    expect(pageLinks(1, 3)).toEqual([1, 2, 3]);
    expect(pageLinks(1, 20)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pageLinks(10, 20)).toEqual([8, 9, 10, 11, 12, 13]);
    expect(pageLinks(20, 20)).toEqual([15, 16, 17, 18, 19, 20]);
  });

  it('reads a custom per page from its digits, within 1…1000', () => {
    expect(customPerPage('7a5')).toBe(75);
    expect(customPerPage('0')).toBeUndefined();
    expect(customPerPage('')).toBeUndefined();
    expect(customPerPage('99999')).toBe(1000);
  });
});

describe('ListFooter', () => {
  it('goes to a page by its link and marks the current one', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    render(<ListFooter page={2} perPage={20} total={130} onPage={onPage} onPerPage={vi.fn()} />);
    const links = screen.getByRole('navigation', { name: 'Pages' });
    expect(links.querySelectorAll('.page-link')).toHaveLength(6);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(onPage).toHaveBeenCalledWith(5);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPage).toHaveBeenCalledWith(3);
    expect(screen.getByText('21–40 of 130')).toBeInTheDocument();
  });

  it('offers 20, 50, 100, 300 and a custom number that keeps digits only', async () => {
    const user = userEvent.setup();
    const onPerPage = vi.fn();
    render(<ListFooter page={1} perPage={50} total={130} onPage={vi.fn()} onPerPage={onPerPage} />);
    const select = screen.getByRole('combobox', { name: 'Per Page' });
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual(['20', '50', '100', '300', 'Custom']);
    await user.selectOptions(select, '100');
    expect(onPerPage).toHaveBeenLastCalledWith(100);
    await user.selectOptions(select, 'Custom');
    const custom = screen.getByRole('textbox', { name: 'Items per page (custom)' });
    await user.clear(custom);
    await user.type(custom, '3x5-');
    expect(custom).toHaveValue('35');
    await user.keyboard('{Enter}');
    expect(onPerPage).toHaveBeenLastCalledWith(35);
  });
});
