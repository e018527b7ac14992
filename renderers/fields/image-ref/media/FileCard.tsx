/** A file the console does not preview (PDF, other): its name, what it is, and a download. */
import { File, FileText } from 'lucide-react';
import { useFormat } from '../../../messages/use-format.ts';
import { DownloadLink } from './DownloadLink.tsx';

export function FileCard({ url, name, kind }: { url: string; name: string; kind: 'pdf' | 'other' }) {
  const t = useFormat();
  const Icon = kind === 'pdf' ? FileText : File;
  return (
    <div className="media-file-card">
      <Icon aria-hidden size={28} className="media-file-icon" />
      <div className="media-file-text">
        <span className="media-file-name">{name}</span>
        <span className="media-file-kind">{t(kind === 'pdf' ? 'editor.media.file.pdf' : 'editor.media.file.other')}</span>
      </div>
      <DownloadLink url={url} name={name} />
    </div>
  );
}
