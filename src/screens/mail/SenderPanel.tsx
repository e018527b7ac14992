/**
 * Mail › Sender (docs/mail.md "Sender settings"): sender name and address, reply-to, whether app
 * users verify their address on sign-up, and the project's own SMTP server. The server never
 * answers the SMTP password, only whether one is stored: the URL is shown without it, and a
 * password typed here is put into the URL sent (`smtp://user:password@host`, the server's input
 * shape); a URL sent without one keeps the stored password while user and host stay the same. What
 * delivers the project's mail now is said plainly. Members who may not edit read it all.
 */
import { useId, useState, type ReactNode } from 'react';
import { Switch } from 'radix-ui';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { mailLimits } from '../../../definitions/mail.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { MailScope, MailSettings, MailSettingsInput } from '../../api/mail.ts';
import { useMailSettings, useSaveMailSettings } from '../../api/mail-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { problemFields } from './mail-problems.ts';

interface Draft {
  senderName: string;
  senderAddress: string;
  replyTo: string;
  smtpUrl: string;
  smtpPassword: string;
  verifyOnSignup: boolean;
}
type Field = Exclude<keyof Draft, 'verifyOnSignup'>;
const fieldNames: readonly (Field | 'verifyOnSignup')[] = ['senderName', 'senderAddress', 'replyTo', 'smtpUrl', 'smtpPassword', 'verifyOnSignup'];

const transportLabels: Record<MailSettings['transport'], MessageKey> = {
  project: 'mailSettings.transport.project',
  smtp: 'mailSettings.transport.smtp',
  outbox: 'mailSettings.transport.outbox',
};

const toDraft = (settings: MailSettings): Draft => ({
  senderName: settings.senderName ?? '',
  senderAddress: settings.senderAddress ?? '',
  replyTo: settings.replyTo ?? '',
  smtpUrl: settings.smtpUrl ?? '',
  smtpPassword: '',
  verifyOnSignup: settings.verifyOnSignup,
});

/** A plain shape check; the server decides (it answers 400 at the field). */
const looksLikeAddress = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

function parseSmtpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '' ? url : null;
  } catch {
    return null;
  }
}

/** The host (and port) of a stored SMTP URL, to say where mail goes. */
const smtpHost = (value: string | null) => (value ? (parseSmtpUrl(value)?.host ?? null) : null);

export function SenderPanel({ scope, canEdit }: { scope: MailScope; canEdit: boolean }) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const settings = useMailSettings(scope);
  if (settings.isError) {
    return (
      <p role="alert" className="callout-error">
        {format('mail.screen.loadFailed', { reason: problemMessage(settings.error) })}
      </p>
    );
  }
  if (!settings.data) {
    return (
      <p className="muted" role="status">
        {format('app.loading')}
      </p>
    );
  }
  return <SenderForm scope={scope} canEdit={canEdit} settings={settings.data} />;
}

function SenderForm({ scope, canEdit, settings }: { scope: MailScope; canEdit: boolean; settings: MailSettings }) {
  const format = useFormat();
  const id = useId();
  const problemMessage = useProblemMessage();
  const save = useSaveMailSettings(scope);
  const [edits, setEdits] = useState<Draft | null>(null);
  const draft = edits ?? toDraft(settings);
  const [errors, setErrors] = useState<Partial<Record<Field | 'verifyOnSignup', string>>>({});
  const [alert, setAlert] = useState<string | null>(null);

  const change = (changes: Partial<Draft>) => {
    setEdits({ ...draft, ...changes });
    setAlert(null);
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(changes)) delete next[key as Field];
      return next;
    });
  };

  const check = (): Partial<Record<Field, string>> => {
    const found: Partial<Record<Field, string>> = {};
    if (draft.senderAddress.trim() && !looksLikeAddress(draft.senderAddress.trim())) found.senderAddress = format('mailSettings.invalidAddress');
    if (draft.replyTo.trim() && !looksLikeAddress(draft.replyTo.trim())) found.replyTo = format('mailSettings.invalidAddress');
    if (draft.smtpUrl.trim() && !parseSmtpUrl(draft.smtpUrl.trim())) found.smtpUrl = format('mailSettings.invalidSmtpUrl');
    if (draft.smtpPassword && !draft.smtpUrl.trim()) found.smtpPassword = format('mailSettings.smtpPasswordNeedsUrl');
    return found;
  };

  /** Only what changed is sent: an absent key keeps its value (and the stored password). */
  const input = (): MailSettingsInput => {
    const body: MailSettingsInput = {};
    const text = (value: string) => (value.trim() === '' ? null : value.trim());
    if (text(draft.senderName) !== settings.senderName) body.senderName = text(draft.senderName);
    if (text(draft.senderAddress) !== settings.senderAddress) body.senderAddress = text(draft.senderAddress);
    if (text(draft.replyTo) !== settings.replyTo) body.replyTo = text(draft.replyTo);
    if (draft.verifyOnSignup !== settings.verifyOnSignup) body.verifyOnSignup = draft.verifyOnSignup;
    const url = text(draft.smtpUrl);
    if (url === null) {
      if (settings.smtpUrl !== null || settings.smtpPasswordSet) body.smtpUrl = null;
    } else if (draft.smtpPassword) {
      const parsed = parseSmtpUrl(url)!;
      parsed.password = draft.smtpPassword;
      body.smtpUrl = parsed.href;
    } else if (url !== settings.smtpUrl) body.smtpUrl = url;
    return body;
  };

  const onSubmit = () => {
    setAlert(null);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    const body = input();
    if (Object.keys(body).length === 0) {
      setEdits(null);
      return;
    }
    save.mutate(body, {
      onSuccess: () => {
        setEdits(null);
        void notify({ kind: 'success', title: format('mailSettings.saved') });
      },
      onError: (error) => {
        const atFields = problemFields(error, fieldNames);
        // The password travels inside the URL: the server's word about it belongs to the URL's field.
        if (Object.keys(atFields).length > 0) setErrors(atFields);
        else setAlert(format('mailSettings.saveFailed', { reason: problemMessage(error) }));
      },
    });
  };

  const host = smtpHost(settings.smtpUrl);
  const field = (name: Field, label: MessageKey, help: ReactNode, extra: { type?: string; autoComplete?: string; maxLength?: number; placeholder?: string } = {}) => {
    const error = errors[name];
    const described = [help ? `${id}-${name}-help` : null, error ? `${id}-${name}-error` : null].filter(Boolean).join(' ');
    return (
      <div className="field">
        <label className="field-label" htmlFor={`${id}-${name}`}>
          {format(label)}
        </label>
        <input
          id={`${id}-${name}`}
          className={name === 'smtpUrl' ? 'input input-mono' : 'input'}
          type={extra.type ?? 'text'}
          autoComplete={extra.autoComplete ?? 'off'}
          spellCheck={false}
          maxLength={extra.maxLength}
          placeholder={extra.placeholder}
          value={draft[name]}
          readOnly={!canEdit}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
          onChange={(event) => change({ [name]: event.target.value })}
        />
        {help ? (
          <p className="field-help" id={`${id}-${name}-help`}>
            {help}
          </p>
        ) : null}
        {error ? (
          <p className="field-error" id={`${id}-${name}-error`}>
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <div className="mail-sender">
      <p className="muted">{format('mailSettings.intro')}</p>
      <dl className="mail-transport" aria-live="polite">
        <dt>{format('mailSettings.transport')}</dt>
        <dd data-transport={settings.transport}>
          <strong>{format(transportLabels[settings.transport])}</strong>
          {settings.transport === 'project' && host ? <span className="mail-host"> ({host})</span> : null}
        </dd>
      </dl>

      <form
        className="form mail-sender-form"
        aria-label={format('mailSettings.title')}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (canEdit) onSubmit();
        }}
      >
        {field('senderName', 'mailSettings.senderName', format('mailSettings.senderNameHelp'), { maxLength: mailLimits.senderNameMax })}
        {field('senderAddress', 'mailSettings.senderAddress', format('mailSettings.senderAddressHelp', { address: settings.defaultSender }), {
          type: 'email',
          maxLength: mailLimits.addressMax,
          placeholder: settings.defaultSender,
        })}
        {field('replyTo', 'mailSettings.replyTo', format('mailSettings.replyToHelp'), { type: 'email', maxLength: mailLimits.addressMax })}

        <div className="field field-switch">
          <label className="switch-label" htmlFor={`${id}-verifyOnSignup`}>
            <Switch.Root
              id={`${id}-verifyOnSignup`}
              className="switch"
              checked={draft.verifyOnSignup}
              disabled={!canEdit}
              aria-describedby={`${id}-verifyOnSignup-help`}
              onCheckedChange={(verifyOnSignup) => change({ verifyOnSignup })}
            >
              <Switch.Thumb className="switch-thumb" />
            </Switch.Root>
            {format('mailSettings.verifyOnSignup')}
          </label>
          <p className="field-help" id={`${id}-verifyOnSignup-help`}>
            {format('mailSettings.verifyOnSignupHelp')}
          </p>
          {errors.verifyOnSignup ? <p className="field-error">{errors.verifyOnSignup}</p> : null}
        </div>

        <fieldset className="mail-smtp">
          <legend className="field-label">{format('mailSettings.smtpTitle')}</legend>
          {field('smtpUrl', 'mailSettings.smtpUrl', format('mailSettings.smtpUrlHelp'), { type: 'url', maxLength: mailLimits.smtpUrlMax })}
          {field('smtpPassword', 'mailSettings.smtpPassword', format(settings.smtpPasswordSet ? 'mailSettings.smtpPasswordStored' : 'mailSettings.smtpPasswordNone'), {
            type: 'password',
            // Not the console's own password: no browser should fill it in or offer to keep it.
            autoComplete: 'new-password',
          })}
        </fieldset>

        {alert ? (
          <p className="form-alert" role="alert">
            {alert}
          </p>
        ) : null}

        {canEdit ? (
          <div className="form-actions">
            {edits ? (
              <button
                type="button"
                className="button"
                onClick={() => {
                  setEdits(null);
                  setErrors({});
                  setAlert(null);
                }}
              >
                {format('mail.screen.discard')}
              </button>
            ) : null}
            <button type="submit" className="button button-primary" disabled={!edits || save.isPending}>
              {format('mailSettings.save')}
            </button>
          </div>
        ) : null}
      </form>
    </div>
  );
}
