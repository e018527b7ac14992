/**
 * What the rich-text editor and its field settings need from outside: the project's rich-text
 * switches (its `settings.richText`, read from the project the shell has loaded), storing a file
 * as a project asset (`PUT …/project/{proj}/asset`, multipart part `asset`, answering its URL),
 * and reading a stored file as text (View JS File: the script is shown, never run). Tests provide
 * their own through `RichTextServicesProvider`.
 */
import { createContext, useContext } from 'react';
import { useQuery } from '@tanstack/react-query';
import { readRichTextSettings, type RichTextSettings } from '../../../definitions/rich-text.ts';
import { getApiClient } from '../../../src/api/client.ts';
import { contentPath, type ProjectScope } from '../../../src/api/content.ts';
import { toApiError } from '../../../src/api/errors.ts';
import { platformKeys, usePlatformApi } from '../../../src/api/platform-queries.ts';
import { requestJson } from '../../../src/api/request-json.ts';

/** A stored project file, as `PUT …/asset` answers it. */
export interface StoredAsset {
  url: string;
  name: string;
  extension: string;
  contentType: string;
  size: number;
}

export interface RichTextServices {
  uploadAsset(scope: ProjectScope, file: File): Promise<StoredAsset>;
  readText(url: string): Promise<string>;
}

export const browserRichTextServices: RichTextServices = {
  uploadAsset(scope, file) {
    const form = new FormData();
    form.append('asset', file, file.name);
    // A 10 MB file on a slow line outlasts any fixed timeout.
    return requestJson<StoredAsset>(getApiClient().http(contentPath(scope, 'asset'), { method: 'put', body: form, timeout: false }));
  },
  async readText(url) {
    // Files are public by address (docs/files.md); the answer is read as text, never evaluated.
    try {
      const response = await fetch(url, { credentials: 'omit', headers: { accept: 'text/plain, */*' } });
      if (!response.ok) throw response;
      return await response.text();
    } catch (error) {
      throw await toApiError(error);
    }
  },
};

const RichTextServicesContext = createContext<RichTextServices>(browserRichTextServices);

/** Overrides the services for a subtree (tests). */
export const RichTextServicesProvider = RichTextServicesContext.Provider;

export const useRichTextServices = () => useContext(RichTextServicesContext);

/** The project's rich-text switches (all off until the project has loaded, or without a project). */
export function useRichTextSettings(scope: ProjectScope | undefined): RichTextSettings {
  const api = usePlatformApi();
  const { data } = useQuery({
    queryKey: platformKeys.project(scope?.organizationID ?? '', scope?.projectID ?? ''),
    queryFn: () => api.project(scope!.organizationID, scope!.projectID),
    enabled: Boolean(scope?.organizationID && scope.projectID),
  });
  return readRichTextSettings(data?.settings);
}
