/**
 * What the ImageRef and ImageRefSet editors need from the form around them: on a
 * saved item, upload and remove at once (the form takes the item each call answers); on a new
 * item, nothing (chosen files wait in the form's value and the form uploads them after the
 * create, reporting progress here). The item page and the linked-item dialog provide it (use-form-files.ts);
 * without it (a form that cannot store files) the editors show the stored files only.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';

/** A call's end: done, or refused with a message to show. */
export type FileCallResult = { ok: true } | { ok: false; message: string };

export interface ImageUploadRequest {
  file: File;
  altText: string;
  /** Fraction sent, 0 to 1. */
  onProgress(fraction: number): void;
  /**
   * The value the field shows once the answer is in, given the answer's value (an image set
   * keeps the person's order of the images it already had); the answer's value when omitted.
   */
  merge?(stored: unknown): unknown;
}

export interface ImageFiles {
  /** The item exists: files go at once. False for a new item: they wait for the create. */
  readonly saved: boolean;
  upload(slug: string, request: ImageUploadRequest): Promise<FileCallResult>;
  /** Removes the field's image (ImageRef) or one image of a set (by its `_id`, else its name). */
  remove(slug: string, which?: { imageID?: string; imageName?: string }, merge?: (stored: unknown) => unknown): Promise<FileCallResult>;
  /** Upload progress of files a new item uploads after its create (0 to 1), by file. */
  readonly progress: UploadProgressStore;
}

/** Progress of uploads by file, for editors to follow (useSyncExternalStore). */
export class UploadProgressStore {
  #progress = new Map<File, number>();
  #listeners = new Set<() => void>();

  get(file: File | undefined): number | undefined {
    return file ? this.#progress.get(file) : undefined;
  }

  set(file: File, fraction: number | undefined) {
    if (fraction === undefined) this.#progress.delete(file);
    else this.#progress.set(file, fraction);
    for (const listener of [...this.#listeners]) listener();
  }

  subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
}

const none = new UploadProgressStore();

const ImageFilesContext = createContext<ImageFiles | null>(null);

export const ImageFilesProvider = ImageFilesContext.Provider;

export function useImageFiles(): ImageFiles | null {
  return useContext(ImageFilesContext);
}

/** The progress of one file a new item is uploading after its create, if any. */
export function useUploadProgress(file: File | undefined): number | undefined {
  const store = useImageFiles()?.progress ?? none;
  return useSyncExternalStore(store.subscribe, () => store.get(file));
}
