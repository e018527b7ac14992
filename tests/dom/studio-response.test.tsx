/**
 * Studio's answer view (src/screens/studio/ResponseView.tsx): a 5 MB JSON body is drawn folded,
 * 100 entries at a time, so the page stays responsive; folding, "Show more" and the raw view.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ResponseView, rawShownMax } from '../../src/screens/studio/ResponseView.tsx';
import { jsonChunk } from '../../src/screens/studio/JsonView.tsx';
import type { StudioResult } from '../../src/api/studio.ts';

afterEach(cleanup);

const result = (text: string, overrides: Partial<StudioResult> = {}): StudioResult => ({
  status: 200,
  statusText: 'OK',
  headers: [
    ['content-type', 'application/json; charset=utf-8'],
    ['item-count', '12000'],
  ],
  itemCount: '12000',
  timeMs: 42,
  text,
  contentType: 'application/json',
  ...overrides,
});

/** About 5 MB: 12,000 items of ~430 bytes each. */
function bigBody(): string {
  const items = Array.from({ length: 12_000 }, (_, i) => ({
    _id: i.toString(16).padStart(24, '0'),
    title: `Item ${i}`,
    body: 'x'.repeat(320),
    tags: ['a', 'b', 'c'],
    nested: { depth: 1, list: [1, 2, 3] },
  }));
  return JSON.stringify(items);
}

describe('the answer view', () => {
  it('draws a 5 MB body folded, in a bounded number of elements, and unfolds on demand', async () => {
    const text = bigBody();
    expect(text.length).toBeGreaterThan(5_000_000);
    const { container } = render(<ResponseView result={result(text)} />);
    // Only the root list is open: one line per item for the first chunk.
    const lines = container.querySelectorAll('.json-branch, .json-leaf');
    expect(lines.length).toBe(1 + jsonChunk);
    expect(container.querySelectorAll('*').length).toBeLessThan(1_500);
    expect(screen.getByTestId('studio-status')).toHaveTextContent('200 OK');
    expect(screen.getByTestId('studio-item-count')).toHaveTextContent('item-count: 12000');
    expect(screen.getByText('[ ] 12,000 items')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Show 100 more \(11,900 left\)/ }));
    expect(container.querySelectorAll('.json-children')[0]!.querySelectorAll(':scope > .json-branch').length).toBe(2 * jsonChunk);

    const first = container.querySelectorAll('.json-children')[0]!.querySelector(':scope > .json-branch')!;
    const toggle = within(first as HTMLElement).getAllByRole('button')[0]!;
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(first).toHaveTextContent('title: "Item 0"');
  });

  it('shows the raw text cut at 100 KB, and text bodies as they are', async () => {
    const user = userEvent.setup();
    const text = bigBody();
    const { unmount } = render(<ResponseView result={result(text)} />);
    await user.click(screen.getByRole('button', { name: 'Raw' }));
    const raw = screen.getByLabelText('Raw', { selector: 'pre' });
    expect(raw.textContent!.length).toBe(rawShownMax);
    expect(screen.getByText(/Showing the first .* of 5\.\d MB\./)).toBeInTheDocument();
    unmount();

    render(<ResponseView result={result('Service unavailable', { status: 503, statusText: 'Service Unavailable', headers: [], itemCount: null, contentType: 'text/plain' })} />);
    expect(screen.getByTestId('studio-status')).toHaveTextContent('503 Service Unavailable');
    expect(screen.queryByTestId('studio-item-count')).toBeNull();
    expect(screen.getByLabelText('Raw', { selector: 'pre' })).toHaveTextContent('Service unavailable');
  });
});
