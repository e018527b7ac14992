/**
 * Link: an address of at most 256 characters: what is typed or pasted past them is
 * not taken, and it says so. An address the type refuses (spaces, a script scheme) is held as a problem.
 * Beside it: open the link, copy it. Under it, for a web address, a preview card of the page
 * (LinkPreviewCard: title, description, image), which never holds up editing or saving.
 */
import { useState } from 'react';
import { ExternalLink } from 'lucide-react';
import { contentLimits } from '../../../definitions/content.ts';
import { fieldType } from '../../../definitions/field-types/index.ts';
import { characterCount } from '../../../definitions/field-types/support.ts';
import { useFormat } from '../../messages/use-format.ts';
import { CopyLinkButton } from '../CopyLinkButton.tsx';
import { describedByOf, useReportProblem } from '../editor-support.ts';
import { limitEdit } from '../limit-edit.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { LinkPreviewCard } from './LinkPreviewCard.tsx';

const max = contentLimits.linkMax;

/** Only web addresses are opened from the console. */
const openable = (text: string) => /^https?:\/\/\S+$/i.test(text);

export function LinkEditor({ field, value, onChange, onBlur, error, disabled, required, id, describedBy, onProblem }: EditorProps) {
  const format = useFormat();
  const text = typeof value === 'string' ? value : '';
  const [cut, setCut] = useState(false);
  const check = text.trim() === '' ? undefined : fieldType(field.type)?.validate(text, field);
  const problem = check && !check.ok ? format('editor.link.invalid') : undefined;
  useReportProblem(onProblem, problem);
  const counterId = `${id}-count`;
  const messages = [cut ? format('editor.text.limit', { max }) : undefined, problem, error];
  const invalid = Boolean(problem || error);
  return (
    <div className="editor editor-link">
      <div className="editor-link-row">
        <input
          id={id}
          className="input"
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={text}
          disabled={disabled}
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedByOf(describedBy, counterId, messages.some(Boolean) && messagesId(id))}
          onChange={(event) => {
            const kept = limitEdit(text, event.target.value, max);
            setCut(kept !== event.target.value);
            onChange(kept === '' ? null : kept);
          }}
          onBlur={() => {
            setCut(false);
            onBlur?.();
          }}
        />
        {openable(text.trim()) && !problem ? (
          <a className="button button-small" href={text.trim()} target="_blank" rel="noopener noreferrer" aria-label={format('editor.link.open')}>
            <ExternalLink aria-hidden="true" size={16} />
          </a>
        ) : null}
        <CopyLinkButton value={text.trim()} label={format('editor.link.copy')} disabled={disabled} />
      </div>
      <span id={counterId} className="editor-counter">
        {format('editor.text.count', { count: characterCount(text), max })}
      </span>
      <EditorMessages id={messagesId(id)} messages={messages} />
      <LinkPreviewCard id={`${id}-preview`} url={openable(text.trim()) && !problem ? text.trim() : null} />
    </div>
  );
}
