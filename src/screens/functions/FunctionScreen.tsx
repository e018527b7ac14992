/**
 * One function (viewFunction; docs/functions.md "The console"): the code editor (CodeMirror, loaded
 * only here) with Save — a new version; a source that does not compile shows each error at its
 * line and column and saves nothing — and Deploy of the latest version; the versions (view the
 * source, deploy an older one = roll back, after a confirmation); a test run with a sample event;
 * the triggers (HTTP address, public, API token, item events and lists, schedule); the invocation
 * log; Delete after a confirmation. Every member reads; organization admins change and test.
 */
import '../../../definitions/messages/areas/functions.ts';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../renderers/dialogs/ConfirmDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { isApiError } from '../../api/errors.ts';
import type { FunctionScope, FunctionView } from '../../api/functions.ts';
import { useDeleteFunction, useDeployFunction, useFunction, useFunctionVersions, useSaveFunctionSource } from '../../api/functions-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { useMyPermissions, useProjectActions, useProjectIds, useProjectPath } from '../project/project-context.ts';
import { compileErrors, starterSource } from './function-helpers.ts';
import { VersionSummary } from './function-ui.tsx';
import { InvocationLog } from './InvocationLog.tsx';
import { TestPanel } from './TestPanel.tsx';
import { TriggersPanel } from './TriggersPanel.tsx';
import { VersionsPanel } from './VersionsPanel.tsx';
import './functions.css';

/** CodeMirror is downloaded when this screen first draws the editor, and by no other page. */
const CodeEditor = lazy(() => import('./CodeEditor.tsx'));

export default function FunctionScreen() {
  const name = useParams().functionName ?? '';
  return <FunctionFrame key={name} name={name} />;
}

function FunctionFrame({ name }: { name: string }) {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const scope = { organizationID, projectID };
  const path = useProjectPath();
  const fn = useFunction(scope, name);

  if (fn.data) return <FunctionPage scope={scope} fn={fn.data} />;
  return (
    <section className="panel function-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`}>{format('route.viewFunction.title')}</h2>
        <Link className="button button-small" to={path('viewFunctions')}>
          {format('functions.back')}
        </Link>
      </div>
      {fn.isError ? (
        <p role="alert" className="form-alert">
          {isApiError(fn.error) && fn.error.status === 404 ? format('problem.function_not_found') : problemText(fn.error, format)}
        </p>
      ) : null}
    </section>
  );
}

function FunctionPage({ scope, fn }: { scope: FunctionScope; fn: FunctionView }) {
  const format = useFormat();
  const id = useId();
  const path = useProjectPath();
  const navigate = useNavigate();
  const loaded = useMyPermissions() !== null;
  const { admin } = useProjectActions();
  const remove = useDeleteFunction(scope);
  const [deleting, setDeleting] = useState(false);

  return (
    <section className="panel function-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`} className="function-title">
          {fn.name}
        </h2>
        <Link className="button button-small" to={path('viewFunctions')}>
          {format('functions.back')}
        </Link>
      </div>
      <p className="function-meta">
        <span>{format(fn.language === 'ts' ? 'functions.language.ts' : 'functions.language.js')}</span>
        <VersionSummary fn={fn} />
      </p>
      {loaded && !admin ? (
        <p className="callout-info" role="note">
          {format('functions.readOnly')}
        </p>
      ) : null}

      <CodeSection scope={scope} fn={fn} admin={admin} />
      <VersionsPanel scope={scope} fn={fn} admin={admin} />
      {admin ? <TestPanel scope={scope} fn={fn} /> : null}
      <TriggersPanel scope={scope} fn={fn} admin={admin} />
      <InvocationLog scope={scope} fn={fn} />

      {admin ? (
        <div className="function-danger">
          <h3>{format('functions.delete.heading')}</h3>
          <p className="muted">{format('functions.delete.help')}</p>
          <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
            {format('functions.delete')}
          </button>
        </div>
      ) : null}

      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={format('functions.delete.title')}
        name="delete-function"
        cancelLabel={format('form.cancel')}
        actionLabel={format('functions.delete')}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(fn.name, {
            onSuccess: () => {
              setDeleting(false);
              void notify({ kind: 'success', title: format('functions.deleted', { name: fn.name }) });
              navigate(path('viewFunctions'));
            },
            onError: (error) => void notify({ kind: 'error', title: problemText(error, format) }),
          })
        }
      >
        <p>{format('functions.delete.confirm', { name: fn.name })}</p>
      </ConfirmDialog>
    </section>
  );
}

/** The editor with Save (a new version) and Deploy (the latest version). */
function CodeSection({ scope, fn, admin }: { scope: FunctionScope; fn: FunctionView; admin: boolean }) {
  const format = useFormat();
  const id = useId();
  const versions = useFunctionVersions(scope, fn.name);
  const save = useSaveFunctionSource(scope, fn.name);
  const deploy = useDeployFunction(scope, fn.name);
  const latest = versions.data?.[0];
  // The person's edits; null while there are none, and the editor shows the latest saved source.
  const [draft, setDraft] = useState<string | null>(null);
  const source = draft ?? latest?.source ?? starterSource(fn.language);
  const errors = useMemo(() => compileErrors(save.error), [save.error]);
  const otherError = save.error && errors.length === 0 ? problemText(save.error, format) : null;
  const changed = latest ? source !== latest.source : true;

  const saveSource = () =>
    save.mutate(source, {
      onSuccess: (version) => {
        setDraft(null);
        void notify({ kind: 'success', title: format('functions.code.saved', { number: version.number }) });
      },
    });
  const deployLatest = () =>
    latest &&
    deploy.mutate(latest.id, {
      onSuccess: () => void notify({ kind: 'success', title: format('functions.code.deployed', { number: latest.number }) }),
      onError: (error) => void notify({ kind: 'error', title: problemText(error, format) }),
    });

  const describedBy = [`${id}-keys`, errors.length ? `${id}-errors` : ''].filter(Boolean).join(' ');
  return (
    <div className="function-code" data-part="code">
      <h3 id={`${id}-label`}>{format('functions.code.title', { language: format(fn.language === 'ts' ? 'functions.language.ts' : 'functions.language.js') })}</h3>
      {versions.isPending ? (
        <p className="muted">{format('functions.code.loading')}</p>
      ) : (
        <Suspense
          fallback={
            <pre className="function-code-fallback">{source}</pre>
          }
        >
          <CodeEditor value={source} onChange={setDraft} language={fn.language} labelledBy={`${id}-label`} describedBy={describedBy} readOnly={!admin} errors={errors} />
        </Suspense>
      )}
      <p id={`${id}-keys`} className="field-help">
        {format(admin ? 'functions.code.keys' : 'functions.code.keysReadOnly')}
      </p>
      {errors.length ? (
        <div id={`${id}-errors`} role="alert" className="form-alert function-compile-errors">
          <p>{format('problem.function_compile_failed')}</p>
          <ul>
            {errors.map((error, index) => (
              <li key={index}>{format('functions.code.errorAt', { line: error.line, column: error.column, message: error.message })}</li>
            ))}
          </ul>
        </div>
      ) : otherError ? (
        <p role="alert" className="form-alert">
          {otherError}
        </p>
      ) : null}
      {admin ? (
        <div className="function-code-actions">
          <button type="button" className="button button-primary" aria-disabled={save.isPending || !changed || undefined} onClick={() => !save.isPending && changed && saveSource()}>
            {format(save.isPending ? 'functions.code.saving' : 'functions.code.save')}
          </button>
          {latest ? (
            <button type="button" className="button" disabled={deploy.isPending || latest.deployed} onClick={deployLatest}>
              {format(latest.deployed ? 'functions.code.latestDeployed' : 'functions.code.deploy', { number: latest.number })}
            </button>
          ) : null}
          <span className="muted" aria-live="polite">
            {changed && latest ? format('functions.code.unsaved') : null}
          </span>
        </div>
      ) : null}
    </div>
  );
}
