/**
 * The ImageRef editor: the size limit refuses and clears the selection, the
 * 4 MB note, the accept list, upload at once with progress on a saved item, a chosen file kept in
 * the form on a new item (with the progress of its upload after the create), alt text, and
 * delete with its toasts.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '../../../renderers/toasts/notify.ts';
import { field } from './support.tsx';
import { fakeFiles, fileInput, fileOf, renderImageEditor } from './image-support.tsx';

vi.mock('../../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

const photo = field(5, { name: 'Photo', slug: 'photo' });
const stored = { imageURL: 'http://larder.test/files/p/1/c/2/i/3/abc.png', imageName: 'abc.png', altText: 'A red square', extension: 'png' };

describe('ImageRef editor', () => {
  it('refuses a file above 10,000,000 bytes, says why and clears the selection', async () => {
    const files = fakeFiles(true);
    const { container, onChange } = renderImageEditor(photo, { files });
    const input = fileInput(container);
    await userEvent.upload(input, fileOf('huge.png', 10_000_001));
    expect(await screen.findByRole('alert')).toHaveTextContent('File is too large, files must be below 10mb');
    expect(input.files).toHaveLength(0);
    expect(input.value).toBe('');
    expect(files.upload).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('refuses an empty file before sending anything', async () => {
    const files = fakeFiles(true);
    const { container, onChange } = renderImageEditor(photo, { files });
    const input = fileInput(container);
    await userEvent.upload(input, fileOf('empty.png', 0));
    expect(await screen.findByRole('alert')).toHaveTextContent('empty.png is empty: choose a file with something in it.');
    expect(input.value).toBe('');
    expect(files.upload).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('takes a file of exactly the limit, noting its size above 4 MB', async () => {
    const files = fakeFiles(true);
    const { container } = renderImageEditor(photo, { files });
    await userEvent.upload(fileInput(container), fileOf('big.png', 10_000_000));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'File is size is 10mb, this may have performance implications. Consider compressing the file before uploading.',
    );
    expect(files.upload).toHaveBeenCalledTimes(1);
  });

  it('notes a 4.5 MB file and uploads it; a 3 MB one gets no note', async () => {
    const files = fakeFiles(true);
    const { container } = renderImageEditor(photo, { files });
    await userEvent.upload(fileInput(container), fileOf('large.png', 4_500_000));
    expect(screen.getByRole('status')).toHaveTextContent('File is size is 4.5mb, this may have performance implications.');
    await act(async () => files.uploads[0]!.answer.resolve({ ok: true }));
    await userEvent.upload(fileInput(container), fileOf('small.png', 3_000_000));
    expect(screen.queryByRole('status')).toBeNull();
    expect(files.upload).toHaveBeenCalledTimes(2);
  });

  it('refuses a file the field does not accept', async () => {
    const files = fakeFiles(true);
    const { container } = renderImageEditor(field(5, { name: 'Document', slug: 'doc', accept: 'application/pdf' }), { files });
    expect(fileInput(container)).toHaveAttribute('accept', 'application/pdf');
    await userEvent.upload(fileInput(container), fileOf('photo.png', 100), { applyAccept: false });
    expect(await screen.findByRole('alert')).toHaveTextContent('photo.png is not a file this field accepts (application/pdf).');
    expect(files.upload).not.toHaveBeenCalled();
  });

  it('accepts images and PDF by default', () => {
    const { container } = renderImageEditor(photo, { files: fakeFiles(true) });
    expect(fileInput(container)).toHaveAttribute('accept', 'image/*,application/pdf');
  });

  it('uploads at once on a saved item, showing its progress, with the alt text shown', async () => {
    const files = fakeFiles(true);
    const { container } = renderImageEditor(photo, { files, value: stored });
    expect(screen.getByRole('textbox', { name: 'Alt text' })).toHaveValue('A red square');
    await userEvent.upload(fileInput(container), fileOf('photo.png', 2000));
    const call = files.uploads[0]!;
    expect(call.slug).toBe('photo');
    expect(call.request.altText).toBe('A red square');
    expect(call.request.file.name).toBe('photo.png');
    act(() => call.request.onProgress(0.4));
    const bar = screen.getByRole('progressbar', { name: 'Uploading photo.png' });
    expect(bar).toHaveAttribute('value', '0.4');
    expect(screen.getByText('Uploading photo.png: 40%')).toBeInTheDocument();
    // While it uploads nothing else can be chosen or deleted.
    expect(screen.getByRole('button', { name: 'Replace the file' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete abc.png' })).toBeDisabled();
    await act(async () => call.answer.resolve({ ok: true }));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Replace the file' })).toBeEnabled();
  });

  it('says why an upload was refused', async () => {
    const files = fakeFiles(true);
    const { container } = renderImageEditor(photo, { files });
    await userEvent.upload(fileInput(container), fileOf('photo.png', 2000));
    await act(async () => files.uploads[0]!.answer.resolve({ ok: false, message: 'This field accepts image/*; the file is text/plain.' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Could not upload photo.png: This field accepts image/*; the file is text/plain.');
    expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'An unknown error occurred uploading images', description: 'This field accepts image/*; the file is text/plain.' });
  });

  it('keeps a chosen file in the form on a new item, and shows its upload after the create', async () => {
    const files = fakeFiles(false);
    const { container, lastValue } = renderImageEditor(photo, { files });
    const file = fileOf('photo.png', 2000);
    await userEvent.upload(fileInput(container), file);
    expect(files.upload).not.toHaveBeenCalled();
    expect(lastValue()).toMatchObject({ file, imageName: 'photo.png', extension: 'png', altText: '' });
    expect(screen.getByText('photo.png will be uploaded when the item is created.')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Alt text' }), 'Sky');
    expect(lastValue()).toMatchObject({ file, altText: 'Sky' });
    act(() => files.progress.set(file, 0.25));
    expect(screen.getByRole('progressbar', { name: 'Uploading photo.png' })).toHaveAttribute('value', '0.25');
    act(() => files.progress.set(file, undefined));
    expect(screen.queryByRole('progressbar')).toBeNull();
    // Deleting a file not uploaded yet only lets it go.
    await userEvent.click(screen.getByRole('button', { name: 'Delete photo.png' }));
    expect(lastValue()).toBeNull();
    expect(files.remove).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });

  it('deletes the stored image, with "Image deleted" or "Could not delete image"', async () => {
    const files = fakeFiles(true);
    renderImageEditor(photo, { files, value: stored });
    await userEvent.click(screen.getByRole('button', { name: 'Delete abc.png' }));
    expect(files.removals[0]!.slug).toBe('photo');
    await act(async () => files.removals[0]!.answer.resolve({ ok: true }));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Image deleted' });
    await userEvent.click(screen.getByRole('button', { name: 'Delete abc.png' }));
    await act(async () => files.removals[1]!.answer.resolve({ ok: false, message: 'The server could not be reached.' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Could not delete image', description: 'The server could not be reached.' }));
  });

  it('shows the stored file with its download, and only that where files cannot be stored', () => {
    renderImageEditor(photo, { files: null, value: stored });
    expect(screen.getByRole('img', { name: 'A red square' })).toHaveAttribute('src', stored.imageURL);
    expect(screen.getByRole('link', { name: /Download/ })).toHaveAttribute('href', `${stored.imageURL}?download=true`);
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(screen.getByText("Files can be added and deleted on the item's own page.")).toBeInTheDocument();
  });

  it('takes a dropped file as a chosen one', async () => {
    const files = fakeFiles(true);
    const { container } = renderImageEditor(photo, { files });
    const zone = container.querySelector('.file-drop')!;
    const file = fileOf('dropped.png', 100);
    const dataTransfer = { files: [file], types: ['Files'], dropEffect: 'none' };
    const { fireEvent } = await import('@testing-library/react');
    fireEvent.dragOver(zone, { dataTransfer });
    fireEvent.drop(zone, { dataTransfer });
    expect(files.upload).toHaveBeenCalledTimes(1);
    expect(files.uploads[0]!.request.file).toBe(file);
  });
});

describe('image displays in lists', () => {
  const base = 'http://larder.test/files/p/1/c/2/i/3';
  it('show a stored raster image as its resize=200 thumbnail, SVG and other addresses as they are, other files by name', async () => {
    const { render } = await import('@testing-library/react');
    const { ImageDisplay } = await import('../../../renderers/fields/image-ref/Display.tsx');
    const { ImageRefSetDisplay } = await import('../../../renderers/fields/image-ref-set/Display.tsx');
    const show = (value: unknown) => render(<ImageDisplay value={value} field={photo} />).container;
    expect(show({ imageURL: `${base}/a.webp`, imageName: 'a.webp', altText: 'Leaf', extension: 'webp' }).querySelector('img')).toHaveAttribute('src', `${base}/a.webp?resize=200`);
    expect(show({ imageURL: `${base}/b.jfif`, imageName: 'b.jfif', extension: 'jfif' }).querySelector('img')).toHaveAttribute('alt', '');
    expect(show({ imageURL: `${base}/c.svg`, imageName: 'c.svg', extension: 'svg' }).querySelector('img')).toHaveAttribute('src', `${base}/c.svg`);
    expect(show({ imageURL: 'https://example.com/d.png', altText: 'Linked' }).querySelector('img')).toHaveAttribute('src', 'https://example.com/d.png');
    expect(show({ imageURL: 'data:image/png;base64,AAAA', altText: 'Pixel' }).querySelector('img')).toHaveAttribute('alt', 'Pixel');
    const pdf = show({ imageURL: `${base}/e.pdf`, imageName: 'e.pdf', extension: 'pdf' });
    expect(pdf.querySelector('img')).toBeNull();
    expect(pdf.querySelector('a')).toHaveAttribute('href', `${base}/e.pdf?download=true`);
    const set = render(<ImageRefSetDisplay value={[1, 2, 3, 4, 5].map((n) => ({ _id: `i${n}`, imageURL: `${base}/${n}.png`, imageName: `${n}.png` }))} field={field(11)} />).container;
    expect(set.querySelectorAll('img')).toHaveLength(3);
    expect(set).toHaveTextContent('+2');
  });
});
