/** Copies a value to the clipboard and says so ("Copied to clipboard"), briefly showing "Copied". */
import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { ui } from '../../definitions/constants.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { notify } from '../../renderers/toasts/notify.ts';

export function CopyButton({ value, label, className = 'button button-small' }: { value: string; label: string; className?: string }) {
  const format = useFormat();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), ui.copiedConfirmationMs);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          void notify({ kind: 'success', title: format('clipboard.copied') });
        } catch {
          void notify({ kind: 'error', title: format('clipboard.copyFailed') });
        }
      }}
    >
      {copied ? <Check aria-hidden="true" size={16} /> : <Copy aria-hidden="true" size={16} />}
      <span aria-hidden="true">{format(copied ? 'clipboard.copiedShort' : 'clipboard.copy')}</span>
    </button>
  );
}
