/**
 * Downloads a stored file: its URL with `download=true`, which the server sends as an
 * attachment under the name it was uploaded with (so the link names no file itself).
 */
import { Download } from 'lucide-react';
import { fileUrlWith } from '../../../../definitions/files.ts';
import { useFormat } from '../../../messages/use-format.ts';

export function DownloadLink({ url, name }: { url: string; name: string }) {
  const t = useFormat();
  return (
    <a className="button button-small media-download" href={fileUrlWith(url, 'download=true')} download aria-label={t('editor.media.downloadName', { name })}>
      <Download aria-hidden size={14} />
      {t('editor.media.download')}
    </a>
  );
}
