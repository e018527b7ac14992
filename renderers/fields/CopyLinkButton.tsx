/**
 * Copies a value (a link, an id) to the clipboard: the button reads "Copied!" for a moment
 * (750 ms) and a polite live region says "Copied to clipboard".
 */
import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { ui } from '../../definitions/constants.ts';
import { useFormat } from '../messages/use-format.ts';

export interface CopyLinkButtonProps {
  value: string;
  /** The button's accessible name ("Copy link"). */
  label: string;
  disabled?: boolean | undefined;
}

export function CopyLinkButton({ value, label, disabled }: CopyLinkButtonProps) {
  const format = useFormat();
  // Copies made since the confirmation last ended: each one shows "Copied!" for the full time again.
  const [copies, setCopies] = useState(0);
  const copied = copies > 0;
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (copies === 0) return;
    const timer = setTimeout(() => {
      setCopies(0);
      // Cleared, so that copying again is announced again.
      setAnnouncement('');
    }, ui.copiedConfirmationMs);
    return () => clearTimeout(timer);
  }, [copies]);
  return (
    <>
      <button
        type="button"
        className="button button-small copy-link-button"
        aria-label={label}
        disabled={disabled || value === ''}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopies((count) => count + 1);
            setAnnouncement(format('clipboard.copied'));
          } catch {
            setAnnouncement(format('clipboard.copyFailed'));
          }
        }}
      >
        {copied ? <Check aria-hidden="true" size={16} /> : <Copy aria-hidden="true" size={16} />}
        <span aria-hidden="true">{format(copied ? 'editor.copied' : 'clipboard.copy')}</span>
      </button>
      <span role="status" className="visually-hidden">
        {announcement}
      </span>
    </>
  );
}
