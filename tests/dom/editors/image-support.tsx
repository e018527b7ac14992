/**
 * Renders an ImageRef or ImageRefSet field through the item form's frame with a hand-answered
 * file service (what the item page provides), keeping the value as the page would.
 */
import { useState } from 'react';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { FieldEditor } from '../../../renderers/fields/FieldEditor.tsx';
import { ImageFilesProvider, UploadProgressStore, type FileCallResult, type ImageFiles, type ImageUploadRequest } from '../../../renderers/fields/image-ref/image-files.ts';
import { deferred, type Deferred } from '../../unit/support/deferred.ts';

globalThis.URL.createObjectURL ??= () => 'blob:chosen';
globalThis.URL.revokeObjectURL ??= () => {};

export interface FakeFiles extends ImageFiles {
  uploads: { slug: string; request: ImageUploadRequest; answer: Deferred<FileCallResult> }[];
  removals: { slug: string; which: unknown; answer: Deferred<FileCallResult> }[];
}

export function fakeFiles(saved: boolean): FakeFiles {
  const uploads: FakeFiles['uploads'] = [];
  const removals: FakeFiles['removals'] = [];
  return {
    saved,
    progress: new UploadProgressStore(),
    uploads,
    removals,
    upload: vi.fn((slug: string, request: ImageUploadRequest) => {
      const answer = deferred<FileCallResult>();
      uploads.push({ slug, request, answer });
      return answer.promise;
    }),
    remove: vi.fn((slug: string, which?: unknown) => {
      const answer = deferred<FileCallResult>();
      removals.push({ slug, which, answer });
      return answer.promise;
    }),
  };
}

export function renderImageEditor(field: SchemaField, { value, files }: { value?: unknown; files: ImageFiles | null }) {
  const onChange = vi.fn();
  let setOutside: (value: unknown) => void = () => {};
  function Form() {
    const [current, setCurrent] = useState<unknown>(value);
    setOutside = setCurrent;
    return (
      <FieldEditor
        field={field}
        value={current}
        onChange={(next) => {
          onChange(next);
          setCurrent(next);
        }}
      />
    );
  }
  const view = render(files ? <ImageFilesProvider value={files}><Form /></ImageFilesProvider> : <Form />);
  return { ...view, onChange, lastValue: () => onChange.mock.calls.at(-1)?.[0], setValue: (next: unknown) => setOutside(next) };
}

/** A file of `size` bytes (its content is zeros: only the size and type matter to the editor). */
export const fileOf = (name: string, size: number, type = 'image/png') => new File([new Uint8Array(size)], name, { type });

/** The hidden input the editor's button opens. */
export const fileInput = (container: HTMLElement) => container.querySelector<HTMLInputElement>('input[type="file"]')!;
