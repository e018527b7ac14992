/**
 * Import Items (docs/content-storage.md "Importing items"): a file, its format (from the name,
 * changeable), Skip bad rows and Ignore unknown columns, then Import with a progress bar of the
 * bytes sent and a Cancel that aborts (the server rolls back). The outcome is announced in a
 * status line: the items imported and the rows skipped, or that nothing was written, each with
 * the rows' line (or record), field and problem; any other problem in the catalogue's words.
 * While the file goes up the dialog closes only through Cancel (no Escape, no outside click).
 */
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { refusalTextOf } from '../../../definitions/field-types/value-refusal.ts';
import { formatSize } from '../../../definitions/format-size.ts';
import { importAccept, importFormatList, type ImportFormat, type ImportRowProblem } from '../../../definitions/item-import.ts';
import '../../../definitions/messages/areas/item-import.ts';
import { canImport, isFileTooLarge, type ImportOutcome } from '../../../machines/item-import.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { ProjectScope } from '../../api/content.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useItemImport } from './use-item-import.ts';

export interface ImportItemsDialogProps {
  scope: ProjectScope;
  collectionID: string;
  collectionName: string;
  onClose: () => void;
  /** Items were written: the list reads them. */
  onImported: () => void;
}

/** Rendered while open: each opening starts with no file and no outcome. */
export function ImportItemsDialog({ scope, collectionID, collectionName, onClose, onImported }: ImportItemsDialogProps) {
  const format = useFormat();
  const id = useId();
  const { context, busy, send } = useItemImport(scope, collectionID, onImported);
  const { file, progress, outcome } = context;
  const input = useRef<HTMLInputElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  // The machine forgets the file once it is imported: the input is emptied with it, Import waits
  // for another file, and focus goes from Import (now disabled) to Done.
  useEffect(() => {
    if (file === null && input.current) input.current.value = '';
  }, [file]);
  useEffect(() => {
    if (outcome?.kind === 'imported') close.current?.focus();
  }, [outcome]);
  const tooLarge = isFileTooLarge(file);
  const ready = canImport(context) && !busy;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) send({ type: 'IMPORT' });
  };

  return (
    <ModalDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={format('itemImport.title', { name: collectionName })}
      description={format('itemImport.intro')}
      name="importItems"
      widthPx={600}
      persistent={busy}
    >
      {({ titleId }) => (
        <form className="form item-import" aria-labelledby={titleId} noValidate onSubmit={submit}>
          <fieldset className="item-import-fields" disabled={busy}>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-file`}>
                {format('itemImport.file')}
              </label>
              <input
                ref={input}
                id={`${id}-file`}
                className="input"
                type="file"
                accept={importAccept}
                aria-invalid={tooLarge || undefined}
                aria-describedby={`${id}-file-help ${id}-file-error`}
                onChange={(event) => send({ type: 'FILE_CHOSEN', file: event.currentTarget.files?.[0] ?? null })}
              />
              <p id={`${id}-file-help`} className="field-help">
                {format('itemImport.fileHelp')}
              </p>
              {/* Always there, so that a refusal appearing is announced. */}
              <p id={`${id}-file-error`} className="field-error" aria-live="polite">
                {tooLarge ? format('itemImport.tooLarge') : ''}
              </p>
            </div>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-format`}>
                {format('itemImport.format')}
              </label>
              <select
                id={`${id}-format`}
                className="input"
                value={context.format ?? ''}
                aria-describedby={`${id}-format-help`}
                onChange={(event) => send({ type: 'FORMAT_CHOSEN', format: event.target.value as ImportFormat })}
              >
                {context.format === null ? (
                  <option value="" disabled>
                    {format('itemImport.formatNone')}
                  </option>
                ) : null}
                {importFormatList.map((choice) => (
                  <option key={choice} value={choice}>
                    {format(`itemImport.format.${choice}`)}
                  </option>
                ))}
              </select>
              <p id={`${id}-format-help`} className="field-help">
                {format('itemImport.formatHelp')}
              </p>
            </div>
            <Option id={`${id}-skip`} option="skipBadRows" checked={context.skipBadRows} onChange={(value) => send({ type: 'OPTION_CHANGED', option: 'skipBadRows', value })} />
            <Option id={`${id}-unknown`} option="ignoreUnknown" checked={context.ignoreUnknown} onChange={(value) => send({ type: 'OPTION_CHANGED', option: 'ignoreUnknown', value })} />
          </fieldset>

          {progress ? <Progress name={file?.name ?? ''} sent={progress.sent} total={progress.total} /> : null}
          <Outcome outcome={outcome} />

          <div className="dialog-actions">
            {/* One button, so focus stays on it: Cancel (closes; while the file goes up, stops it), Done once something happened. */}
            <button ref={close} type="button" className="button" onClick={() => (busy ? send({ type: 'CANCEL' }) : onClose())}>
              {busy || !outcome ? format('form.cancel') : format('itemImport.close')}
            </button>
            {/* Busy, it keeps focus (aria-disabled: the console's "working" look); without a file it is disabled. */}
            <button type="submit" className="button button-primary" disabled={!busy && !ready} aria-disabled={busy || undefined}>
              {busy ? format('itemImport.importing') : format('itemImport.import')}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}

/** Each option's label and help, named in full so the catalogue check finds them. */
const optionKeys = {
  skipBadRows: ['itemImport.skipBadRows', 'itemImport.skipBadRowsHelp'],
  ignoreUnknown: ['itemImport.ignoreUnknown', 'itemImport.ignoreUnknownHelp'],
} as const;

function Option({ id, option, checked, onChange }: { id: string; option: 'skipBadRows' | 'ignoreUnknown'; checked: boolean; onChange: (value: boolean) => void }) {
  const format = useFormat();
  const [label, help] = optionKeys[option];
  return (
    <div className="field">
      <label className="choice" htmlFor={id}>
        <input id={id} type="checkbox" checked={checked} aria-describedby={`${id}-help`} onChange={(event) => onChange(event.target.checked)} />
        {format(label)}
      </label>
      <p id={`${id}-help`} className="field-help">
        {format(help)}
      </p>
    </div>
  );
}

/** The bytes sent of the file; once all are sent the server is writing the last batch. */
function Progress({ name, sent, total }: { name: string; sent: number; total: number }) {
  const format = useFormat();
  const done = total > 0 && sent >= total;
  const text = done
    ? format('itemImport.finishing', { name })
    : format('itemImport.sending', { name, sent: formatSize(sent), total: formatSize(total), percent: total > 0 ? sent / total : 0 });
  return (
    <div className="file-progress item-import-progress">
      {/* Without a value while the server finishes: the bar shows work going on, not a stalled 100 %. */}
      <progress max={total || 1} value={done ? undefined : sent} aria-label={format('itemImport.progress')} aria-valuetext={text} />
      <span className="file-progress-text">{text}</span>
    </div>
  );
}

/** The status line (always there, so each outcome is announced) and the rows' report. */
function Outcome({ outcome }: { outcome: ImportOutcome | null }) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  let summary: { tone: 'success' | 'error' | 'info'; text: string } | null = null;
  let rows: ImportRowProblem[] = [];
  let unlisted = false;
  if (outcome?.kind === 'imported') {
    const { imported, skipped, errors } = outcome.answer;
    summary = { tone: skipped > 0 ? 'info' : 'success', text: format('itemImport.summary', { imported, skipped }) };
    rows = errors;
    unlisted = skipped > errors.length;
  } else if (outcome?.kind === 'refused') {
    // The catalogue's words (the problem's detail repeats the rows, listed below instead).
    summary = { tone: 'error', text: format('problem.import_refused') };
    rows = outcome.errors;
    // The server lists the first 100 bad rows and stops reading there.
    unlisted = rows.length >= 100;
  } else if (outcome?.kind === 'failed') {
    summary = { tone: 'error', text: problemMessage(outcome.error) };
  } else if (outcome?.kind === 'cancelled') {
    summary = { tone: 'info', text: format('itemImport.cancelled') };
  }
  return (
    <>
      <div role="status" className="item-import-status">
        {summary ? <p className={`callout-${summary.tone}`}>{summary.text}</p> : null}
      </div>
      {rows.length > 0 ? <RowReport rows={rows} unlisted={unlisted} /> : null}
    </>
  );
}

/** The bad rows: where each is in the file, the field and why. Scrolls by keyboard when long. */
function RowReport({ rows, unlisted }: { rows: ImportRowProblem[]; unlisted: boolean }) {
  const format = useFormat();
  const id = useId();
  const place = (row: ImportRowProblem) =>
    row.line !== undefined ? format('itemImport.line', { line: row.line }) : row.record !== undefined ? format('itemImport.record', { record: row.record }) : '';
  return (
    <>
      <div className="item-import-rows" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table className="item-import-table">
          <caption id={`${id}-caption`}>{format('itemImport.errors')}</caption>
          <thead>
            <tr>
              <th scope="col">{format('itemImport.col.row')}</th>
              <th scope="col">{format('itemImport.col.field')}</th>
              <th scope="col">{format('itemImport.col.problem')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index}>
                <td>{place(row)}</td>
                <td>{row.path ? <code>{row.path}</code> : format('itemImport.wholeRow')}</td>
                <td>{refusalTextOf(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {unlisted ? <p className="field-help">{format('itemImport.firstListed', { count: rows.length })}</p> : null}
    </>
  );
}
