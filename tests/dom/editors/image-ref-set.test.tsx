/**
 * The ImageRefSet editor: several files each uploaded with its progress,
 * reordering by keyboard (the new order is the field's value, saved with the item), dragging
 * disabled for files not uploaded yet and while an upload runs, deleting one (by its `_id`), alt
 * text per file, and the merge of a file call's answer with the person's order.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '../../../renderers/toasts/notify.ts';
import { mergeStoredSet } from '../../../renderers/fields/image-ref-set/Editor.tsx';
import { field } from './support.tsx';
import { fakeFiles, fileInput, fileOf, renderImageEditor } from './image-support.tsx';

vi.mock('../../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

const gallery = field(11, { name: 'Gallery', slug: 'gallery' });
const image = (n: number) => ({ _id: `id${n}`, imageURL: `http://larder.test/files/p/1/c/2/i/3/f${n}.png`, imageName: `f${n}.png`, altText: `Picture ${n}`, extension: 'png' });
const set = [image(1), image(2), image(3)];

// jsdom lays nothing out: each file of the list is 100 px below the one before it.
const rect = (top: number, height: number) => ({ x: 0, y: top, top, left: 0, width: 600, height, right: 600, bottom: top + height, toJSON: () => ({}) }) as DOMRect;
const original = Element.prototype.getBoundingClientRect;
beforeEach(() => {
  vi.mocked(notify).mockClear();
  Element.prototype.getBoundingClientRect = function (this: Element) {
    const row = this.closest('li.file-set-entry');
    if (!row?.parentElement) return rect(0, 0);
    return rect([...row.parentElement.children].indexOf(row) * 100, 90);
  };
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  Element.prototype.getBoundingClientRect = original;
  cleanup();
});

const pause = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

async function moveDown(name: string) {
  screen.getByRole('button', { name: `Move ${name}` }).focus();
  await userEvent.keyboard('[Space]');
  await pause();
  await userEvent.keyboard('[ArrowDown]');
  await pause();
  await userEvent.keyboard('[Space]');
  await pause();
}

const names = () => within(screen.getByRole('list', { name: 'Files, in order' })).getAllByRole('listitem').map((item) => item.getAttribute('data-entry'));

describe('ImageRefSet editor', () => {
  it('reorders by keyboard: the new order is the value, announced', async () => {
    const { lastValue } = renderImageEditor(gallery, { files: fakeFiles(true), value: set });
    expect(screen.getByRole('button', { name: 'Move f1.png' })).toHaveAccessibleDescription(/focus its handle and press Space/);
    await moveDown('f1.png');
    expect((lastValue() as { _id: string }[]).map((entry) => entry._id)).toEqual(['id2', 'id1', 'id3']);
    expect(names()).toEqual(['id2', 'id1', 'id3']);
    expect(document.body).toHaveTextContent('f1.png dropped at position 2 of 3.');
  });

  it('uploads several files one after the other, each with its progress; nothing moves meanwhile', async () => {
    const files = fakeFiles(true);
    const { container, onChange } = renderImageEditor(gallery, { files, value: set });
    await userEvent.upload(fileInput(container), [fileOf('a.png', 100), fileOf('b.png', 200)]);
    expect(files.upload).toHaveBeenCalledTimes(1);
    act(() => files.uploads[0]!.request.onProgress(0.5));
    expect(screen.getByRole('progressbar', { name: 'Uploading a.png' })).toHaveAttribute('value', '0.5');
    expect(screen.getByRole('progressbar', { name: 'Uploading b.png' })).toHaveAttribute('value', '0');
    // Dragging is off while files upload: the handles say so and Space picks nothing up.
    const handle = screen.getByRole('button', { name: 'Move f1.png' });
    expect(handle).toHaveAttribute('aria-disabled', 'true');
    handle.focus();
    await userEvent.keyboard('[Space]');
    await pause();
    await userEvent.keyboard('[ArrowDown]');
    await userEvent.keyboard('[Space]');
    await pause();
    expect(onChange).not.toHaveBeenCalled();
    await act(async () => files.uploads[0]!.answer.resolve({ ok: true }));
    expect(files.upload).toHaveBeenCalledTimes(2);
    expect(files.uploads[1]!.request.file.name).toBe('b.png');
    expect(screen.queryByRole('progressbar', { name: 'Uploading a.png' })).toBeNull();
    await act(async () => files.uploads[1]!.answer.resolve({ ok: true }));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Move f1.png' })).toHaveAttribute('aria-disabled', 'false');
  });

  it('refuses a file above the limit among several, uploading the others', async () => {
    const files = fakeFiles(true);
    const { container } = renderImageEditor(gallery, { files });
    const input = fileInput(container);
    await userEvent.upload(input, [fileOf('huge.png', 10_000_001), fileOf('ok.png', 100)]);
    expect(screen.getByRole('alert')).toHaveTextContent('File is too large, files must be below 10mb');
    expect(input.files).toHaveLength(0);
    expect(files.upload).toHaveBeenCalledTimes(1);
    expect(files.uploads[0]!.request.file.name).toBe('ok.png');
  });

  it('keeps a new item’s files in the form, not draggable until uploaded', async () => {
    const files = fakeFiles(false);
    const { container, lastValue } = renderImageEditor(gallery, { files });
    await userEvent.upload(fileInput(container), [fileOf('a.png', 100), fileOf('b.png', 100)]);
    expect(files.upload).not.toHaveBeenCalled();
    expect((lastValue() as { imageName: string }[]).map((entry) => entry.imageName)).toEqual(['a.png', 'b.png']);
    const handle = screen.getByRole('button', { name: 'Move a.png' });
    expect(handle).toHaveAttribute('aria-disabled', 'true');
    expect(handle).toHaveAttribute('title', 'Not uploaded yet: it cannot be moved until it is.');
    const before = lastValue();
    handle.focus();
    await userEvent.keyboard('[Space]');
    await pause();
    await userEvent.keyboard('[ArrowDown]');
    await userEvent.keyboard('[Space]');
    await pause();
    expect(lastValue()).toBe(before);
    // Alt text per file.
    await userEvent.type(screen.getByRole('textbox', { name: 'Alt text of b.png' }), 'Bee');
    expect((lastValue() as { altText: string }[]).map((entry) => entry.altText)).toEqual(['', 'Bee']);
    // Deleting one not uploaded yet only lets it go.
    await userEvent.click(screen.getByRole('button', { name: 'Delete a.png' }));
    expect((lastValue() as { imageName: string }[]).map((entry) => entry.imageName)).toEqual(['b.png']);
    expect(files.remove).not.toHaveBeenCalled();
  });

  it('deletes one stored file by its id, with its toast', async () => {
    const files = fakeFiles(true);
    renderImageEditor(gallery, { files, value: set });
    await userEvent.click(screen.getByRole('button', { name: 'Delete f2.png' }));
    expect(files.removals[0]).toMatchObject({ slug: 'gallery', which: { imageID: 'id2' } });
    await act(async () => files.removals[0]!.answer.resolve({ ok: true }));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Image deleted' });
  });

  it('merges an answer with the person’s order: kept entries first, new ones after, gone ones out', () => {
    const local = [image(3), { ...image(1), altText: 'edited' }, image(2)];
    const stored = [image(1), image(3), image(4)];
    expect(mergeStoredSet(local, stored)).toEqual([image(3), { ...image(1), altText: 'edited' }, image(4)]);
    expect(mergeStoredSet([image(1)], null)).toBeNull();
  });
});
