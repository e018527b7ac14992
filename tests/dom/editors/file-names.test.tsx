/**
 * Files are shown by the name they were uploaded with (the value's `fileName`; docs/files.md):
 * the ImageRef and ImageRefSet editors name the file, its download, its alt text field and its
 * Delete button by it, never by the stored file's random name. Alt text is what the person typed,
 * or empty (the picture is then decorative: the name is written beside it). Values stored before
 * names were kept fall back to the stored name.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { field } from './support.tsx';
import { fakeFiles, fileInput, fileOf, renderImageEditor } from './image-support.tsx';

vi.mock('../../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
afterEach(cleanup);

const photo = field(5, { name: 'Photo', slug: 'photo' });
const gallery = field(11, { name: 'Gallery', slug: 'gallery' });
const hash = '7a9b72c0d1e2f3a4b5c6d7e8f9a0b1c2.png';
const base = 'http://larder.test/files/p/1/c/2/i/3';
const named = { imageURL: `${base}/${hash}`, imageName: hash, altText: '', extension: 'png', fileName: 'Harbour at dusk.png' };

describe('file names in the image editors', () => {
  it('ImageRef: the uploaded name is shown and names the download and Delete; the button reads "Delete"; no alt text means an empty alt, typed alt text is the alt', async () => {
    const { container } = renderImageEditor(photo, { files: fakeFiles(true), value: named });
    expect(screen.getByText('Harbour at dusk.png')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download Harbour at dusk.png' })).toBeInTheDocument();
    const remove = screen.getByRole('button', { name: 'Delete Harbour at dusk.png' });
    expect(remove).toHaveTextContent(/^Delete$/);
    expect(container.textContent).not.toContain(hash);
    const picture = container.querySelector('img.media-image-element')!;
    expect(picture).toHaveAttribute('alt', '');
    // The alt text typed becomes the picture's alt.
    await userEvent.type(screen.getByRole('textbox', { name: 'Alt text' }), 'Boats');
    expect(container.querySelector('img.media-image-element')).toHaveAttribute('alt', 'Boats');
    expect(screen.getByRole('img', { name: 'Boats' })).toBeInTheDocument();
  });

  it('ImageRef: a file chosen for a new item is named by its own name, its preview with an empty alt', async () => {
    const files = fakeFiles(false);
    const { container, lastValue } = renderImageEditor(photo, { files });
    await userEvent.upload(fileInput(container), fileOf('Map of the bay.png', 100));
    expect(lastValue()).toMatchObject({ fileName: 'Map of the bay.png' });
    expect(screen.getByRole('button', { name: 'Delete Map of the bay.png' })).toHaveTextContent(/^Delete$/);
    expect(container.querySelector('img.file-pending-image')).toHaveAttribute('alt', '');
  });

  it('ImageRefSet: each file is named by its uploaded name in its move handle, alt text label, download and Delete (older values by their stored name)', () => {
    const set = [
      { ...named, _id: 'a' },
      { _id: 'b', imageURL: `${base}/0123456789abcdef0123456789abcdef.jpg`, imageName: '0123456789abcdef0123456789abcdef.jpg', altText: 'Pier', extension: 'jpg', fileName: 'pier.jpg' },
    ];
    const { container } = renderImageEditor(gallery, { files: fakeFiles(true), value: set });
    const list = screen.getByRole('list', { name: 'Files, in order' });
    expect(within(list).getByRole('button', { name: 'Move Harbour at dusk.png' })).toBeInTheDocument();
    expect(within(list).getByRole('textbox', { name: 'Alt text of Harbour at dusk.png' })).toHaveValue('');
    expect(within(list).getByRole('link', { name: 'Download pier.jpg' })).toBeInTheDocument();
    for (const name of ['Harbour at dusk.png', 'pier.jpg']) expect(within(list).getByRole('button', { name: `Delete ${name}` })).toHaveTextContent(/^Delete$/);
    expect(container.textContent).not.toContain(hash);
    const pictures = [...container.querySelectorAll('img.media-image-element')].map((img) => img.getAttribute('alt'));
    expect(pictures).toEqual(['', 'Pier']);
    cleanup();
    // A value stored before names were kept is named by its stored name.
    const { fileName: _dropped, ...older } = named;
    renderImageEditor(photo, { files: fakeFiles(true), value: older });
    expect(screen.getByRole('button', { name: `Delete ${hash}` })).toHaveTextContent(/^Delete$/);
  });

  it('list cells: an image without alt text has an empty alt; a file is linked by its uploaded name', async () => {
    const { ImageDisplay } = await import('../../../renderers/fields/image-ref/Display.tsx');
    const cell = render(<ImageDisplay value={named} field={photo} />).container;
    expect(cell.querySelector('img')).toHaveAttribute('alt', '');
    const pdf = render(<ImageDisplay value={{ imageURL: `${base}/${'e'.repeat(32)}.pdf`, imageName: `${'e'.repeat(32)}.pdf`, extension: 'pdf', fileName: 'Terms.pdf' }} field={photo} />).container;
    expect(pdf.querySelector('a')).toHaveTextContent('Terms.pdf');
  });
});
