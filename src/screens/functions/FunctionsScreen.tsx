/**
 * Functions (viewFunctions; docs/functions.md "The console"): the project's functions — name,
 * language, deployed version against the latest, and what runs them (HTTP address, item events on
 * which lists, schedule, public) — "New function" (name and language; the new one opens on its own
 * screen), and the project's secrets: names only, a value set or replaced, deleted after a
 * confirmation. Every member reads the functions; only organization admins change anything and see
 * the secrets (the server answers those calls to them alone).
 */
import '../../../definitions/messages/areas/functions.ts';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { functionLimits } from '../../../definitions/schemas/functions.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { isApiError } from '../../api/errors.ts';
import { functionAddress, type FunctionView } from '../../api/functions.ts';
import { useCreateFunction, useFunctions } from '../../api/functions-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { useMyPermissions, useProjectActions, useProjectIds, useProjectPath } from '../project/project-context.ts';
import { SecretsPanel } from './SecretsPanel.tsx';
import { TriggerSummary, VersionSummary } from './function-ui.tsx';
import './functions.css';

const namePattern = new RegExp(functionLimits.namePattern);

export default function FunctionsScreen() {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const scope = { organizationID, projectID };
  const path = useProjectPath();
  const loaded = useMyPermissions() !== null;
  const { admin } = useProjectActions();
  const list = useFunctions(scope);

  return (
    <section className="panel functions-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`}>{format('route.viewFunctions.title')}</h2>
      </div>
      <p className="muted">{format('functions.screen.intro')}</p>

      <h3 id={`${id}-list`}>{format('functions.list.title')}</h3>
      {list.isPending ? null : list.isError ? (
        <p role="alert" className="form-alert">
          {problemText(list.error, format)}
        </p>
      ) : list.data.length === 0 ? (
        <p className="muted">{format('functions.list.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table functions-table" aria-labelledby={`${id}-list`}>
            <thead>
              <tr>
                <th scope="col">{format('functions.list.name')}</th>
                <th scope="col">{format('functions.list.language')}</th>
                <th scope="col">{format('functions.list.version')}</th>
                <th scope="col">{format('functions.list.triggers')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((fn) => (
                <tr key={fn.id} data-function={fn.name}>
                  <td className="function-nowrap">
                    <Link to={path('viewFunction', { functionName: fn.name })}>{fn.name}</Link>
                  </td>
                  <td className="function-nowrap">{format(fn.language === 'ts' ? 'functions.language.ts' : 'functions.language.js')}</td>
                  <td>
                    <VersionSummary fn={fn} />
                  </td>
                  <td>
                    <TriggerSummary fn={fn} address={functionAddress(window.location.origin, projectID, fn.name)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {loaded && admin ? <NewFunction existing={list.data ?? []} /> : null}

      <h3 id={`${id}-secrets`}>{format('functions.secrets.title')}</h3>
      <p className="muted">{format('functions.secrets.intro')}</p>
      {!loaded ? null : admin ? (
        <SecretsPanel scope={scope} labelledBy={`${id}-secrets`} />
      ) : (
        <p className="callout-info" role="note">
          {format('functions.secrets.adminsOnly')}
        </p>
      )}
    </section>
  );
}

function NewFunction({ existing }: { existing: readonly FunctionView[] }) {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const path = useProjectPath();
  const navigate = useNavigate();
  const create = useCreateFunction({ organizationID, projectID });
  const [name, setName] = useState('');
  const [language, setLanguage] = useState<'js' | 'ts'>('ts');
  const [nameError, setNameError] = useState<string | null>(null);

  const serverError = create.error && isApiError(create.error) ? problemText(create.error, format) : null;
  const error = nameError ?? serverError;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = name.trim();
    const problem = !namePattern.test(wanted) ? format('functions.new.nameInvalid') : existing.some((fn) => fn.name === wanted) ? format('problem.function_exists') : null;
    setNameError(problem);
    if (problem) {
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    create.mutate(
      { name: wanted, language },
      {
        onSuccess: (made) => {
          void notify({ kind: 'success', title: format('functions.new.created', { name: made.name }) });
          navigate(path('viewFunction', { functionName: made.name }));
        },
      },
    );
  };

  return (
    <form className="form functions-new" aria-labelledby={`${id}-title`} noValidate onSubmit={submit}>
      <h3 id={`${id}-title`}>{format('functions.new.title')}</h3>
      <div className="functions-new-fields">
        <div className="field field-text">
          <label className="field-label" htmlFor={`${id}-name`}>
            {format('functions.new.name')}
          </label>
          <input
            id={`${id}-name`}
            className="input input-mono"
            value={name}
            maxLength={63}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={[`${id}-name-help`, error ? `${id}-name-error` : ''].filter(Boolean).join(' ')}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(null);
            }}
          />
          <p id={`${id}-name-help`} className="field-help">
            {format('functions.new.nameHelp')}
          </p>
          {error ? (
            <p id={`${id}-name-error`} className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="field field-select">
          <label className="field-label" htmlFor={`${id}-language`}>
            {format('functions.new.language')}
          </label>
          <select id={`${id}-language`} className="input" value={language} onChange={(event) => setLanguage(event.target.value === 'js' ? 'js' : 'ts')}>
            <option value="ts">{format('functions.language.ts')}</option>
            <option value="js">{format('functions.language.js')}</option>
          </select>
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" aria-disabled={create.isPending || undefined}>
          {format(create.isPending ? 'functions.new.creating' : 'functions.new.submit')}
        </button>
      </div>
    </form>
  );
}
