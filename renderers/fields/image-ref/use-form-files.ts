/**
 * The item form's file calls: what the ImageRef and ImageRefSet editors use
 * on a saved item (upload or remove at once; the form then takes the item the call answered,
 * through `onStored`), and the `uploadFiles` step of the item-form machine, which uploads a new
 * item's chosen files once it is created, one after the other, reporting progress to the editors.
 */
import { useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { UploadFilesInput, UploadFilesOutput, VersionedItemResult } from '../../../machines/item-form.ts';
import { UploadProgressStore, type ImageFiles } from './image-files.ts';
import { contentKeys } from '../../../src/api/content-keys.ts';
import type { ProjectScope } from '../../../src/api/content.ts';
import { addressOfCreated, addressOfSaved, type FormItemPlace } from '../../../src/api/item-address.ts';
import { useFilesApi } from '../../../src/api/files-queries.ts';
import type { ImageTarget } from '../../../src/api/files.ts';
import { useProblemMessage } from '../../../src/hooks/use-problem-message.ts';

export interface FormImageFiles {
  files: ImageFiles;
  /** The machine's `uploadFiles` actor. */
  uploadFiles(input: UploadFilesInput): Promise<UploadFilesOutput>;
}

export function useImageFiles(
  scope: ProjectScope,
  collectionID: string,
  place: FormItemPlace,
  onStored: (slug: string, result: VersionedItemResult, value: unknown) => void,
): FormImageFiles {
  const api = useFilesApi();
  const queryClient = useQueryClient();
  const problemMessage = useProblemMessage();
  const [progress] = useState(() => new UploadProgressStore());
  // Read when a call answers, so a late answer reaches the form as it is then.
  const latest = useRef({ place, onStored, problemMessage });
  latest.current = { place, onStored, problemMessage };

  return useMemo(() => {
    const listChanged = () => void queryClient.invalidateQueries({ queryKey: contentKeys.items(scope, collectionID) });
    const targetOf = (slug: string): ImageTarget | null => {
      const { place } = latest.current;
      return place.itemID === null ? null : { collectionID, ...addressOfSaved(place, place.itemID), slug };
    };
    const refused = (error: unknown) => ({ ok: false as const, message: latest.current.problemMessage(error) });

    const files: ImageFiles = {
      saved: place.itemID !== null,
      progress,
      async upload(slug, request) {
        const target = targetOf(slug);
        if (!target) return { ok: false, message: '' };
        try {
          const result = await api.uploadImage(scope, target, {
            file: request.file,
            altText: request.altText,
            onProgress: (sent, total) => request.onProgress(total > 0 ? sent / total : 0),
          });
          listChanged();
          latest.current.onStored(slug, result, request.merge ? request.merge(result.item[slug] ?? null) : undefined);
          return { ok: true };
        } catch (error) {
          return refused(error);
        }
      },
      async remove(slug, which, merge) {
        const target = targetOf(slug);
        if (!target) return { ok: false, message: '' };
        try {
          const result = await api.deleteImage(scope, target, which);
          listChanged();
          latest.current.onStored(slug, result, merge ? merge(result.item[slug] ?? null) : undefined);
          return { ok: true };
        } catch (error) {
          return refused(error);
        }
      },
    };

    const uploadFiles = async (input: UploadFilesInput): Promise<UploadFilesOutput> => {
      // The new item: a nested one is reached through its top-level item and its list's chain.
      const base = { collectionID: input.collectionID, ...addressOfCreated(input, input.itemID) };
      let result: VersionedItemResult | null = null;
      let failed = 0;
      // One after the other: an image set keeps the order the files were chosen in.
      for (const pending of input.files) {
        const file = pending.file as File;
        progress.set(file, 0);
        try {
          result = await api.uploadImage(scope, { ...base, slug: pending.slug }, {
            file,
            altText: pending.altText,
            onProgress: (sent, total) => progress.set(file, total > 0 ? sent / total : 0),
          });
        } catch {
          failed += 1;
        } finally {
          progress.set(file, undefined);
        }
      }
      listChanged();
      return { result, failed };
    };

    return { files, uploadFiles };
    // place.itemID decides whether files go at once; the rest is read through `latest`.
  }, [api, queryClient, scope, collectionID, progress, place.itemID]);
}

/**
 * The form's file calls, counted while they run: saving waits for them, since each answer moves
 * the item's version. Used by the item page and the linked-item dialog alike.
 */
export function useFormFiles(
  scope: ProjectScope,
  collectionID: string,
  place: FormItemPlace,
  onStored: (slug: string, result: VersionedItemResult, value: unknown) => void,
): FormImageFiles & { busy: boolean } {
  const imageFiles = useImageFiles(scope, collectionID, place, onStored);
  const [running, setRunning] = useState(0);
  const files = useMemo<ImageFiles>(() => {
    const counted = async <T,>(call: () => Promise<T>): Promise<T> => {
      setRunning((n) => n + 1);
      try {
        return await call();
      } finally {
        setRunning((n) => n - 1);
      }
    };
    const { upload, remove } = imageFiles.files;
    return {
      ...imageFiles.files,
      upload: (...args) => counted(() => upload(...args)),
      remove: (...args) => counted(() => remove(...args)),
    };
  }, [imageFiles.files]);
  return { files, uploadFiles: imageFiles.uploadFiles, busy: running > 0 };
}
