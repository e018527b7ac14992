/**
 * The preview of a stored file in the ImageRef and ImageRefSet editors, chosen by
 * the file's extension: an image, an audio player, the 3D viewer (three, loaded only here and
 * only when a model is shown), or a card. Every kind offers the file's download; alt text
 * editing and delete are the editor's.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { useFormat } from '../../../messages/use-format.ts';
import { AudioPlayer } from './AudioPlayer.tsx';
import { DownloadLink } from './DownloadLink.tsx';
import { FileCard } from './FileCard.tsx';
import { fileKindOf, modelFormatOf, previewExtension, type FileKind } from './kinds.ts';
import './media.css';

function ViewerMessage({ message }: { message: 'editor.media.model.loading' | 'editor.media.model.unavailable' }) {
  const t = useFormat();
  return (
    <p role="status" className="media-model-message media-model-placeholder">
      {t(message)}
    </p>
  );
}

// A viewer chunk that cannot be fetched (offline, a new deployment) says so instead of failing the page.
const ModelViewer = lazy(() => import('./ModelViewer.tsx').catch(() => ({ default: () => <ViewerMessage message="editor.media.model.unavailable" /> })));

interface PreviewProps {
  url: string;
  name: string;
  extension: string;
  altText?: string;
}

/** The picture's alt is the alt text typed, or empty: the file's name is written beside it, so it is not lost. */
function ImagePreview({ url, name, altText }: PreviewProps) {
  return (
    <div className="media-image">
      <img className="media-image-element" src={url} alt={altText ?? ''} loading="lazy" decoding="async" />
      {name ? <span className="media-image-name">{name}</span> : null}
      <DownloadLink url={url} name={name} />
    </div>
  );
}

function ModelPreview({ url, name, extension }: PreviewProps) {
  const format = modelFormatOf(extension)!;
  return (
    <div className="media-model-wrap">
      <Suspense fallback={<ViewerMessage message="editor.media.model.loading" />}>
        <ModelViewer key={url} url={url} name={name} format={format} />
      </Suspense>
      <DownloadLink url={url} name={name} />
    </div>
  );
}

const previews: Record<FileKind, ComponentType<PreviewProps>> = {
  image: ImagePreview,
  audio: ({ url, name }) => <AudioPlayer url={url} name={name} />,
  model: ModelPreview,
  pdf: ({ url, name }) => <FileCard url={url} name={name} kind="pdf" />,
  other: ({ url, name }) => <FileCard url={url} name={name} kind="other" />,
};

export function FilePreview({ url, name, extension, altText }: { url: string; name: string; extension?: string; altText?: string }) {
  const ext = previewExtension({ extension, name, url });
  const kind = fileKindOf(ext);
  const Preview = previews[kind];
  return (
    <div className="file-preview" data-kind={kind}>
      <Preview url={url} name={name} extension={ext} altText={altText} />
    </div>
  );
}
