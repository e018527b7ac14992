/** The Link editor's preview card: asked once the address settles, loading and "no preview" states that block nothing. */
import '@testing-library/jest-dom/vitest';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { FieldEditor } from '../../../renderers/fields/FieldEditor.tsx';
import { LinkPreviewApiProvider, type LinkPreview, type LinkPreviewApi } from '../../../src/api/link-preview.ts';
import { ApiError } from '../../../src/api/errors.ts';
import { field } from './support.tsx';

const created: string[] = [];
beforeEach(() => {
  created.length = 0;
  // jsdom has no object URLs.
  URL.createObjectURL = vi.fn(() => {
    const url = `blob:preview-${created.length + 1}`;
    created.push(url);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
});
afterEach(cleanup);

function fakeApi(answer: (url: string) => Promise<LinkPreview>, image: (url: string) => Promise<Blob> = async () => new Blob(['x'], { type: 'image/webp' })) {
  return { preview: vi.fn(answer), image: vi.fn(image) } satisfies LinkPreviewApi;
}

function renderLink(api: LinkPreviewApi, value?: string) {
  const onChange = vi.fn();
  const onProblem = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  function Form() {
    const [current, setCurrent] = useState<unknown>(value);
    return (
      <FieldEditor
        field={field(9, { name: 'Site' })}
        value={current}
        onProblem={onProblem}
        onChange={(next) => {
          onChange(next);
          setCurrent(next);
        }}
      />
    );
  }
  render(
    <QueryClientProvider client={queryClient}>
      <LinkPreviewApiProvider value={api}>
        <Form />
      </LinkPreviewApiProvider>
    </QueryClientProvider>,
  );
  return { onChange, onProblem };
}

const page: LinkPreview = { title: 'Example Domain', description: 'An example page.', image: 'https://example.com/cover.png' };

describe('Link preview card', () => {
  it('asks once the address has settled and shows title, description and the server-made image', async () => {
    const user = userEvent.setup();
    let release!: (preview: LinkPreview) => void;
    const api = fakeApi(() => new Promise((resolve) => (release = resolve)));
    renderLink(api);
    const input = screen.getByLabelText('Site');
    await user.type(input, 'https://example.com');
    // Typing asks nothing: one request, for the whole address, after the pause.
    await waitFor(() => expect(screen.getByText('Loading preview…')).toBeInTheDocument(), { timeout: 2000 });
    expect(api.preview).toHaveBeenCalledTimes(1);
    expect(api.preview.mock.calls[0]![0]).toBe('https://example.com');
    release(page);
    const card = await screen.findByRole('group', { name: 'Preview of example.com' });
    expect(card).toHaveTextContent('Example Domain');
    expect(card).toHaveTextContent('An example page.');
    await waitFor(() => expect(card.querySelector('img')).toHaveAttribute('src', 'blob:preview-1'));
    expect(api.image).toHaveBeenCalledWith('https://example.com/cover.png', expect.any(AbortSignal));
    // The input stays editable while and after the card loads.
    expect(input).toBeEnabled();
  });

  it('shows "no preview" for a refused or unreachable address, and editing and saving go on', async () => {
    const user = userEvent.setup();
    const api = fakeApi(async () => {
      throw new ApiError({ status: 422, code: 'preview_refused', detail: 'This address cannot be previewed.' });
    });
    const { onChange, onProblem } = renderLink(api);
    const input = screen.getByLabelText('Site');
    await user.type(input, 'http://127.0.0.1');
    expect(await screen.findByText('No preview available for this address.', {}, { timeout: 2000 })).toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith('http://127.0.0.1');
    // No problem held: the page may save the value.
    expect(onProblem.mock.calls.every(([problem]) => problem === undefined)).toBe(true);
    await user.type(input, '/x');
    expect(input).toHaveValue('http://127.0.0.1/x');
  });

  it('shows "no preview" when the page has nothing to show, and the card without an image when the image fails', async () => {
    const api = fakeApi(async (url) => (url.endsWith('/empty') ? { title: null, description: null, image: null } : page), async () => {
      throw new ApiError({ status: 502, code: 'preview_unreachable', detail: 'The page could not be reached.' });
    });
    renderLink(api, 'https://example.com/empty');
    expect(await screen.findByText('No preview available for this address.')).toBeInTheDocument();
    cleanup();
    renderLink(api, 'https://example.com/page');
    const card = await screen.findByRole('group', { name: 'Preview of example.com' });
    await waitFor(() => expect(api.image).toHaveBeenCalled());
    expect(card.querySelector('img')).toBeNull();
  });

  it('asks nothing for what is not a web address', async () => {
    const user = userEvent.setup();
    const api = fakeApi(async () => page);
    renderLink(api);
    const input = screen.getByLabelText('Site');
    await user.type(input, 'mailto:someone@example.com');
    await new Promise((resolve) => setTimeout(resolve, 900));
    await user.clear(input);
    await user.paste('javascript:alert(1)');
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(api.preview).not.toHaveBeenCalled();
    expect(screen.queryByText('Loading preview…')).not.toBeInTheDocument();
  });
});
