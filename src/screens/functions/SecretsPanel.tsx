/**
 * The project's function secrets (docs/functions.md "Functions and versions"): their names and
 * when each was set — never a value, the server answers none — a form that sets one (a name the
 * project has is replaced), "Replace value" per secret and Delete after a confirmation.
 * Organization admins only; the screen draws it for them alone.
 */
import { useId, useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { functionLimits } from '../../../definitions/schemas/functions.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { ConfirmDialog } from '../../../renderers/dialogs/ConfirmDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { FunctionScope } from '../../api/functions.ts';
import { useDeleteFunctionSecret, useFunctionSecrets, usePutFunctionSecret } from '../../api/functions-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';

const namePattern = new RegExp(functionLimits.secretNamePattern);

export function SecretsPanel({ scope, labelledBy }: { scope: FunctionScope; labelledBy: string }) {
  const format = useFormat();
  const secrets = useFunctionSecrets(scope, true);
  const remove = useDeleteFunctionSecret(scope);
  const [replacing, setReplacing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  return (
    <div className="function-secrets">
      {secrets.isPending ? null : secrets.isError ? (
        <p role="alert" className="form-alert">
          {problemText(secrets.error, format)}
        </p>
      ) : secrets.data.length === 0 ? (
        <p className="muted">{format('functions.secrets.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact function-secret-table" aria-labelledby={labelledBy}>
            <thead>
              <tr>
                <th scope="col">{format('functions.secrets.name')}</th>
                <th scope="col">{format('functions.secrets.updated')}</th>
                <th scope="col">
                  <span className="visually-hidden">{format('functions.secrets.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {secrets.data.map((secret) => (
                <tr key={secret.name} data-secret={secret.name}>
                  <td>
                    <code>{secret.name}</code>
                  </td>
                  <td className="function-nowrap">{formatDateTime(secret.updatedDate)}</td>
                  <td>
                    <div className="function-row-actions">
                      <button type="button" className="button button-small" aria-label={format('functions.secrets.replaceNamed', { name: secret.name })} onClick={() => setReplacing(secret.name)}>
                        {format('functions.secrets.replace')}
                      </button>
                      <button type="button" className="button button-small button-danger" aria-label={format('functions.secrets.deleteNamed', { name: secret.name })} onClick={() => setDeleting(secret.name)}>
                        {format('functions.secrets.delete')}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <SecretForm scope={scope} />

      <ModalDialog open={replacing !== null} onOpenChange={(open) => !open && setReplacing(null)} title={format('functions.secrets.replaceTitle', { name: replacing ?? '' })} widthPx={500} name="replace-secret">
        {replacing !== null ? <SecretForm scope={scope} fixedName={replacing} onDone={() => setReplacing(null)} /> : null}
      </ModalDialog>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={format('functions.secrets.deleteTitle')}
        name="delete-secret"
        cancelLabel={format('form.cancel')}
        actionLabel={format('functions.secrets.delete')}
        pending={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting, {
            onSuccess: () => {
              void notify({ kind: 'success', title: format('functions.secrets.deleted', { name: deleting }) });
              setDeleting(null);
            },
            onError: (error) => void notify({ kind: 'error', title: problemText(error, format) }),
          })
        }
      >
        <p>{format('functions.secrets.deleteConfirm', { name: deleting ?? '' })}</p>
      </ConfirmDialog>
    </div>
  );
}

/** Sets a secret: a new name and its value, or (`fixedName`) a new value of one the project has. */
function SecretForm({ scope, fixedName, onDone }: { scope: FunctionScope; fixedName?: string; onDone?: () => void }) {
  const format = useFormat();
  const id = useId();
  const put = usePutFunctionSecret(scope);
  const [name, setName] = useState(fixedName ?? '');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ name?: string; value?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: { name?: string; value?: string } = {};
    if (!namePattern.test(name.trim())) next.name = format('functions.secrets.nameInvalid');
    if (!value) next.value = format('functions.secrets.valueRequired');
    setErrors(next);
    if (next.name || next.value) return;
    put.mutate(
      { name: name.trim(), value },
      {
        onSuccess: () => {
          void notify({ kind: 'success', title: format('functions.secrets.saved', { name: name.trim() }) });
          setValue('');
          if (!fixedName) setName('');
          onDone?.();
        },
      },
    );
  };
  const field = (key: 'name' | 'value') =>
    errors[key] ? (
      <p id={`${id}-${key}-error`} className="field-error">
        {errors[key]}
      </p>
    ) : null;

  return (
    <form className="form function-secret-form" aria-label={fixedName ? format('functions.secrets.replaceTitle', { name: fixedName }) : format('functions.secrets.add')} noValidate onSubmit={submit}>
      <div className="function-secret-fields">
        {fixedName ? null : (
          <div className="field field-text">
            <label className="field-label" htmlFor={`${id}-name`}>
              {format('functions.secrets.name')}
            </label>
            <input
              id={`${id}-name`}
              className="input input-mono"
              value={name}
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? `${id}-name-error` : undefined}
              onChange={(event) => setName(event.target.value)}
            />
            {field('name')}
          </div>
        )}
        <div className="field field-text">
          <label className="field-label" htmlFor={`${id}-value`}>
            {format('functions.secrets.value')}
          </label>
          <input
            id={`${id}-value`}
            className="input input-mono"
            type="password"
            value={value}
            autoComplete="new-password"
            spellCheck={false}
            aria-invalid={errors.value ? true : undefined}
            aria-describedby={errors.value ? `${id}-value-error` : undefined}
            onChange={(event) => setValue(event.target.value)}
          />
          {field('value')}
        </div>
      </div>
      {put.error ? (
        <p role="alert" className="form-alert">
          {problemText(put.error, format)}
        </p>
      ) : null}
      <div className="form-actions">
        {onDone ? (
          <button type="button" className="button" onClick={onDone}>
            {format('form.cancel')}
          </button>
        ) : null}
        <button type="submit" className="button button-primary" aria-disabled={put.isPending || undefined}>
          {format(fixedName ? 'functions.secrets.replaceSubmit' : 'functions.secrets.addSubmit')}
        </button>
      </div>
    </form>
  );
}
