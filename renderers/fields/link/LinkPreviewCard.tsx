/**
 * The preview card under a Link editor: once the address has stayed the same for a
 * moment, the server reads the page's title, description and image (`POST /api/generatePreview`).
 * The image is the server's re-encoded copy shown through a blob: address (the console's CSP loads
 * no remote images). Loading and "no preview" are quiet notes: the card never blocks editing or saving.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { linkPreview } from '../../../definitions/constants.ts';
import { useLinkPreviewApi, type LinkPreviewApi } from '../../../src/api/link-preview.ts';
import { useFormat } from '../../messages/use-format.ts';
import { useDebouncedValue } from '../use-debounced-value.ts';
import './link-preview.css';

/** The server's copy of a preview image as a blob: address, or null (none, failed, or not yet). */
function usePreviewImage(api: LinkPreviewApi, url: string | null): string | null {
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    setObjectUrl(null);
    if (!url) return undefined;
    const controller = new AbortController();
    let made: string | null = null;
    api
      .image(url, controller.signal)
      .then((blob) => {
        if (controller.signal.aborted) return;
        made = URL.createObjectURL(blob);
        setObjectUrl(made);
      })
      .catch(() => undefined); // No image: the card shows its text alone.
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [api, url]);
  return objectUrl;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export interface LinkPreviewCardProps {
  /** An http(s) address the field holds as valid; null shows nothing. */
  url: string | null;
  id: string;
}

export function LinkPreviewCard({ url, id }: LinkPreviewCardProps) {
  const format = useFormat();
  const api = useLinkPreviewApi();
  const settled = useDebouncedValue(url, linkPreview.debounceMs);
  const current = url !== null && settled === url ? url : null;
  const query = useQuery({
    queryKey: ['linkPreview', current],
    queryFn: ({ signal }) => api.preview(current!, signal),
    enabled: current !== null,
    retry: false,
    staleTime: 10 * 60_000,
  });
  const preview = query.data;
  const image = usePreviewImage(api, current && preview?.image ? preview.image : null);
  // One polite live region, present before anything is put in it, so each state is announced.
  let shown: ReactNode = null;
  if (current !== null) {
    if (query.isPending) {
      shown = <p className="link-preview-state">{format('editor.link.preview.loading')}</p>;
    } else if (query.isError || !preview || (!preview.title && !preview.description && !preview.image)) {
      shown = <p className="link-preview-state">{format('editor.link.preview.none')}</p>;
    } else {
      const host = hostOf(current);
      shown = (
        <div className="link-preview" role="group" aria-label={format('editor.link.preview.label', { host })}>
          {image ? <img className="link-preview-image" src={image} alt="" /> : null}
          <div className="link-preview-text">
            {preview.title ? <p className="link-preview-title">{preview.title}</p> : null}
            {preview.description ? <p className="link-preview-description">{preview.description}</p> : null}
            <span className="link-preview-host">{host}</span>
          </div>
        </div>
      );
    }
  }
  return (
    <div id={id} className="link-preview-live" aria-live="polite">
      {shown}
    </div>
  );
}
