/** The file calls for React: the page's client, or what a test provides for a subtree. */
import { createContext, useContext } from 'react';
import { getFilesApi, type FilesApi } from './files.ts';

const FilesApiContext = createContext<FilesApi | null>(null);

/** Overrides the file calls for a subtree (tests); without it the page's client is used. */
export const FilesApiProvider = FilesApiContext.Provider;

export function useFilesApi(): FilesApi {
  return useContext(FilesApiContext) ?? getFilesApi();
}
