/**
 * Mail › Templates (docs/mail.md "Templates"): the kinds, and the chosen one's editor — subject,
 * HTML and plain text, its variables (a click inserts one at the cursor of the last field used), a
 * live preview the server renders with sample values (debounced; the HTML in a sandboxed iframe
 * that runs no scripts), Save, Reset to default (confirmed) and "Send a test to me". A template the
 * server refuses (unknown variable, parse error) shows the message at its field and nothing is
 * saved. Members who may not edit see the same, read-only and without the buttons.
 * Each kind's draft is kept by MailScreen while the person moves between kinds; the kind list marks
 * those with unsaved changes, and Save, Discard and Reset each touch the chosen kind's draft only.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { mailLimits, mailTemplateKinds, type MailTemplateKind } from '../../../definitions/mail.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { MailScope, MailTemplate, MailTemplateInput } from '../../api/mail.ts';
import { mailKeys, useMailApi, useMailTemplates, useResetMailTemplate, useSaveMailTemplate, useSendTestMail } from '../../api/mail-queries.ts';
import { isApiError } from '../../api/errors.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { problemFields, useSettled } from './mail-problems.ts';

type Part = keyof MailTemplateInput;
const parts: readonly Part[] = ['subject', 'html', 'text'];
const partLabels: Record<Part, MessageKey> = { subject: 'mail.screen.subject', html: 'mail.screen.html', text: 'mail.screen.text' };
const partMax: Record<Part, number> = { subject: mailLimits.subjectMax, html: mailLimits.htmlMax, text: mailLimits.textMax };

export const kindLabels: Record<MailTemplateKind, MessageKey> = {
  verification: 'mail.screen.kind.verification',
  reset: 'mail.screen.kind.reset',
  otp: 'mail.screen.kind.otp',
};
const kindHelp: Record<MailTemplateKind, MessageKey> = {
  verification: 'mail.screen.kindHelp.verification',
  reset: 'mail.screen.kindHelp.reset',
  otp: 'mail.screen.kindHelp.otp',
};

/** The drafts of the kinds being edited (absent: the stored text shows). */
export type TemplateDrafts = Partial<Record<MailTemplateKind, MailTemplateInput>>;
/** One kind's new draft (undefined drops it), or how to make it from the current one. */
export interface TemplateDraftChange {
  kind: MailTemplateKind;
  draft: MailTemplateInput | undefined | ((current: MailTemplateInput | undefined) => MailTemplateInput | undefined);
}

/** Whether a draft differs from the stored template (and so would be lost). */
export function isUnsaved(draft: MailTemplateInput | undefined, template: MailTemplateInput | undefined): boolean {
  return draft !== undefined && template !== undefined && parts.some((part) => draft[part] !== template[part]);
}

const sameInput = (a: MailTemplateInput | undefined, b: MailTemplateInput) => a !== undefined && parts.every((part) => a[part] === b[part]);

/** How long the editor waits after the last keystroke before asking for a preview. */
const PREVIEW_DELAY_MS = 400;

interface TemplatesPanelProps {
  scope: MailScope;
  kind: MailTemplateKind;
  onKind: (kind: MailTemplateKind) => void;
  canEdit: boolean;
  myEmail: string | null;
  drafts: TemplateDrafts;
  onDraft: (change: TemplateDraftChange) => void;
}

export function TemplatesPanel(props: TemplatesPanelProps) {
  const { scope, kind, onKind, drafts } = props;
  const format = useFormat();
  const id = useId();
  const problemMessage = useProblemMessage();
  const templates = useMailTemplates(scope);
  const template = templates.data?.find((entry) => entry.kind === kind);

  return (
    <div className="mail-templates">
      <nav className="mail-kinds" aria-labelledby={`${id}-kinds`}>
        <h3 id={`${id}-kinds`} className="visually-hidden">
          {format('mail.screen.kinds')}
        </h3>
        <ul>
          {mailTemplateKinds.map((value) => {
            const entry = templates.data?.find((t) => t.kind === value);
            return (
              <li key={value}>
                <button type="button" className="mail-kind" aria-current={value === kind ? 'page' : undefined} onClick={() => onKind(value)}>
                  <span className="mail-kind-name">{format(kindLabels[value])}</span>
                  {entry ? (
                    <span className="mail-kind-badges">
                      <span className={entry.custom ? 'badge badge-active' : 'badge'}>{format(entry.custom ? 'mail.screen.custom' : 'mail.screen.default')}</span>
                      {isUnsaved(drafts[value], entry) ? <span className="badge badge-invited mail-kind-unsaved">{format('mail.screen.kindUnsaved')}</span> : null}
                    </span>
                  ) : null}
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="mail-editor-column">
        {templates.isError ? (
          <p role="alert" className="callout-error">
            {format('mail.screen.loadFailed', { reason: problemMessage(templates.error) })}
          </p>
        ) : !template ? (
          <p className="muted" role="status">
            {format('app.loading')}
          </p>
        ) : (
          // A new editor per kind and per saved version; the kind's draft, if any, is kept above it.
          <TemplateEditor key={`${template.kind}:${template.updatedDate ?? 'default'}:${template.custom}`} {...props} draft={drafts[kind]} template={template} />
        )}
      </div>
    </div>
  );
}

function TemplateEditor({
  scope,
  kind,
  canEdit,
  myEmail,
  template,
  draft: kept,
  onDraft,
}: Omit<TemplatesPanelProps, 'drafts' | 'onKind'> & { template: MailTemplate; draft: MailTemplateInput | undefined }) {
  const format = useFormat();
  const id = useId();
  const api = useMailApi();
  const problemMessage = useProblemMessage();
  const save = useSaveMailTemplate(scope);
  const reset = useResetMailTemplate(scope);
  const sendTest = useSendTestMail(scope);
  const saved: MailTemplateInput = { subject: template.subject, html: template.html, text: template.text };
  const edits = kept ?? null;
  const setEdits = (next: MailTemplateInput | null) => onDraft({ kind, draft: next ?? undefined });
  const draft = edits ?? saved;
  const dirty = edits !== null && parts.some((part) => edits[part] !== saved[part]);
  const [saveErrors, setSaveErrors] = useState<Partial<Record<Part, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);
  const fields = useRef<Partial<Record<Part, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  const lastField = useRef<Part>('html');
  const caret = useRef<{ part: Part; at: number } | null>(null);

  // After a variable is inserted: the cursor goes back to the field, just after the variable.
  useEffect(() => {
    const wanted = caret.current;
    if (!wanted) return;
    caret.current = null;
    const element = fields.current[wanted.part];
    if (element) {
      element.focus();
      element.setSelectionRange(wanted.at, wanted.at);
    }
  });

  const missing = parts.filter((part) => draft[part].trim() === '');
  const tooLong = parts.filter((part) => draft[part].length > partMax[part]);
  const localErrors: Partial<Record<Part, string>> = {};
  for (const part of missing) localErrors[part] = format('mail.screen.required');
  for (const part of tooLong) localErrors[part] = format('mail.screen.tooLong', { max: partMax[part] });
  const complete = missing.length === 0 && tooLong.length === 0;

  // The preview follows the draft once typing pauses; a refused draft keeps the last good preview.
  const settled = useSettled(draft, PREVIEW_DELAY_MS);
  const settledComplete = parts.every((part) => settled[part].trim() !== '' && settled[part].length <= partMax[part]);
  const preview = useQuery({
    queryKey: [...mailKeys.templates(scope), 'preview', kind, settled],
    queryFn: ({ signal }) => api.preview(scope, kind, settled, signal),
    enabled: settledComplete,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
  });
  const previewErrors = preview.isError ? problemFields(preview.error, parts) : {};
  const previewFieldless = preview.isError && Object.keys(previewErrors).length === 0;

  const change = (part: Part, value: string) => {
    setEdits({ ...draft, [part]: value });
    setSaveErrors((current) => {
      if (!current[part]) return current;
      const next = { ...current };
      delete next[part];
      return next;
    });
    setAlert(null);
  };

  const insert = (name: string) => {
    const part = lastField.current;
    const element = fields.current[part];
    const value = draft[part];
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    const token = `{{ ${name} }}`;
    caret.current = { part, at: start + token.length };
    change(part, value.slice(0, start) + token + value.slice(end));
  };

  const refused = (error: unknown, message: MessageKey) => {
    const atFields = problemFields(error, parts);
    if (Object.keys(atFields).length > 0) {
      setSaveErrors(atFields);
      const first = parts.find((part) => atFields[part]);
      if (first) fields.current[first]?.focus();
    } else setAlert(format(message, { reason: problemMessage(error) }));
  };

  const onSave = () => {
    setAlert(null);
    setSaveErrors({});
    if (!complete) {
      fields.current[missing[0] ?? tooLong[0] ?? 'subject']?.focus();
      return;
    }
    // A saved template is a new version: this editor gives way to a fresh one (its key), so the
    // outcome is read from the promise, which settles whether or not this editor is still there.
    // Once saved, the draft is dropped unless it was changed while saving.
    const sent = draft;
    save.mutateAsync({ kind, input: sent }).then(
      () => {
        onDraft({ kind, draft: (current) => (sameInput(current, sent) ? undefined : current) });
        void notify({ kind: 'success', title: format('mail.screen.saved') });
      },
      (error: unknown) => refused(error, 'mail.screen.saveFailed'),
    );
  };

  const onTest = () => {
    setAlert(null);
    if (!complete) return;
    sendTest.mutate(
      { kind, draft },
      {
        onSuccess: () => void notify({ kind: 'success', title: myEmail ? format('mail.screen.testSent', { email: myEmail }) : format('mail.screen.testSentToYou') }),
        onError: (error) => {
          if (isApiError(error) && error.status === 403) return; // the shell says "Insufficient permissions"
          refused(error, 'mail.screen.testFailed');
        },
      },
    );
  };

  const shownErrors: Partial<Record<Part, string>> = { ...previewErrors, ...(edits ? localErrors : {}), ...saveErrors };

  return (
    <div className="mail-editor">
      <div className="section-header">
        <h3 id={`${id}-title`}>
          {format(kindLabels[kind])}
          <span className={template.custom ? 'badge badge-active' : 'badge'}>{format(template.custom ? 'mail.screen.custom' : 'mail.screen.default')}</span>
        </h3>
      </div>
      <p className="muted mail-kind-help">{format(kindHelp[kind])}</p>

      <form
        className="form mail-template-form"
        aria-labelledby={`${id}-title`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (canEdit) onSave();
        }}
      >
        {parts.map((part) => {
          const error = shownErrors[part];
          const Tag = part === 'subject' ? 'input' : 'textarea';
          return (
            <div className="field" key={part}>
              <label className="field-label" htmlFor={`${id}-${part}`}>
                {format(partLabels[part])}
              </label>
              <Tag
                id={`${id}-${part}`}
                ref={(element: HTMLInputElement | HTMLTextAreaElement | null) => {
                  fields.current[part] = element;
                }}
                className={part === 'subject' ? 'input' : 'input textarea input-mono mail-code'}
                rows={part === 'html' ? 10 : part === 'text' ? 7 : undefined}
                value={draft[part]}
                readOnly={!canEdit}
                spellCheck={part !== 'html'}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-${part}-error` : undefined}
                onFocus={() => (lastField.current = part)}
                onChange={(event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => change(part, event.target.value)}
              />
              {error ? (
                <p className="field-error" id={`${id}-${part}-error`}>
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}

        <fieldset className="mail-variables">
          <legend className="field-label">{format('mail.screen.variables')}</legend>
          {canEdit ? <p className="field-help">{format('mail.screen.variablesHelp')}</p> : null}
          <ul>
            {template.variables.map((name) => (
              <li key={name}>
                {canEdit ? (
                  <button type="button" className="button button-small mail-variable" aria-label={format('mail.screen.insertVariable', { name })} onClick={() => insert(name)}>
                    <code>{`{{ ${name} }}`}</code>
                  </button>
                ) : (
                  <code className="mail-variable">{`{{ ${name} }}`}</code>
                )}
              </li>
            ))}
          </ul>
        </fieldset>

        {alert ? (
          <p className="form-alert" role="alert">
            {alert}
          </p>
        ) : null}

        {canEdit ? (
          <div className="form-actions mail-actions">
            {dirty ? <span className="muted">{format('mail.screen.unsaved')}</span> : null}
            {dirty ? (
              <button
                type="button"
                className="button"
                onClick={() => {
                  setEdits(null);
                  setSaveErrors({});
                  setAlert(null);
                }}
              >
                {format('mail.screen.discard')}
              </button>
            ) : null}
            {template.custom ? (
              <button type="button" className="button" onClick={() => setResetting(true)}>
                {format('mail.screen.resetDefault')}
              </button>
            ) : null}
            <button type="button" className="button" disabled={!complete || sendTest.isPending} onClick={onTest}>
              {format('mail.screen.sendTest')}
            </button>
            <button type="submit" className="button button-primary" disabled={!dirty || save.isPending}>
              {format('mail.screen.save')}
            </button>
          </div>
        ) : null}
      </form>

      <section className="mail-preview" aria-labelledby={`${id}-preview`}>
        <div className="mail-preview-header">
          <h3 id={`${id}-preview`}>{format('mail.screen.preview')}</h3>
          <span className="muted" role="status">
            {preview.isFetching ? format('mail.screen.previewing') : format('mail.screen.previewHelp')}
          </span>
        </div>
        {previewFieldless ? (
          <p className="callout-error" role="alert">
            {format('mail.screen.previewFailed', { reason: problemMessage(preview.error) })}
          </p>
        ) : null}
        {preview.data ? (
          <>
            <p className="mail-preview-subject">{format('mail.screen.previewSubject', { subject: preview.data.subject })}</p>
            {/* sandbox with no permissions: the mail's HTML runs no script, submits nothing, opens nothing. */}
            <iframe className="mail-frame" title={format('mail.screen.previewFrame')} sandbox="" srcDoc={preview.data.html} />
            <h4>{format('mail.screen.previewText')}</h4>
            <pre className="mail-plain">{preview.data.text}</pre>
          </>
        ) : null}
      </section>

      <ModalDialog open={resetting} onOpenChange={setResetting} title={format('mail.screen.resetTitle')} widthPx={480} name="reset-mail-template">
        <p>{format('mail.screen.resetConfirm', { kind: format(kindLabels[kind]) })}</p>
        <div className="form-actions">
          <button type="button" className="button" onClick={() => setResetting(false)}>
            {format('mail.screen.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={reset.isPending}
            onClick={() =>
              reset.mutateAsync(kind).then(
                () => {
                  setResetting(false);
                  // The stored text is the default again: this kind's draft goes with the edited text.
                  onDraft({ kind, draft: undefined });
                  void notify({ kind: 'success', title: format('mail.screen.resetDone') });
                },
                (error: unknown) => {
                  setResetting(false);
                  if (isApiError(error) && error.status === 403) return;
                  void notify({ kind: 'error', title: format('mail.screen.resetFailed', { reason: problemMessage(error) }) });
                },
              )
            }
          >
            {format('mail.screen.resetDefault')}
          </button>
        </div>
      </ModalDialog>
    </div>
  );
}
