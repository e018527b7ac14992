/**
 * A test run (docs/functions.md "Functions and versions", POST …/test): a sample event as JSON —
 * an item created in one of the project's collections when the function runs on item events, else
 * a request as the HTTP trigger sends it — run with the latest saved version (deployed or not);
 * shows the outcome, the result, the console lines and an error with its stack. Admins only.
 */
import { useId, useState } from 'react';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { FunctionScope, FunctionTestResult, FunctionView } from '../../api/functions.ts';
import { useTestFunction } from '../../api/functions-queries.ts';
import { useProject } from '../../api/platform-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { durationText, memoryText, sampleEvent } from './function-helpers.ts';
import { RunStatus } from './function-ui.tsx';

export function TestPanel({ scope, fn }: { scope: FunctionScope; fn: FunctionView }) {
  const format = useFormat();
  const id = useId();
  const { data: project } = useProject(scope.organizationID, scope.projectID);
  const test = useTestFunction(scope, fn.name);
  const sample = () => JSON.stringify(sampleEvent(fn, project?.collections ?? []), null, 2);
  // The person's event; null until edited, so the sample follows the triggers and the project.
  const [edited, setEdited] = useState<string | null>(null);
  const text = edited ?? sample();
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<FunctionTestResult | null>(null);

  const run = () => {
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch (error) {
      setJsonError(format('functions.test.invalidJson', { reason: error instanceof Error ? error.message : String(error) }));
      document.getElementById(`${id}-event`)?.focus();
      return;
    }
    setJsonError(null);
    test.mutate(event, { onSuccess: setOutcome, onError: () => setOutcome(null) });
  };

  const invocation = outcome?.invocation;
  return (
    <div className="function-test" data-part="test">
      <h3 id={`${id}-title`}>{format('functions.test.title')}</h3>
      <p className="muted">{format('functions.test.intro')}</p>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-event`}>
          {format('functions.test.event')}
        </label>
        <textarea
          id={`${id}-event`}
          className="input input-mono function-event"
          rows={10}
          spellCheck={false}
          value={text}
          aria-invalid={jsonError ? true : undefined}
          aria-describedby={jsonError ? `${id}-event-error` : undefined}
          onChange={(event) => {
            setEdited(event.target.value);
            setJsonError(null);
          }}
        />
        {jsonError ? (
          <p id={`${id}-event-error`} className="field-error">
            {jsonError}
          </p>
        ) : null}
      </div>
      <div className="function-code-actions">
        <button type="button" className="button button-primary" aria-disabled={test.isPending || fn.latestVersion === null || undefined} onClick={() => !test.isPending && fn.latestVersion !== null && run()}>
          {format(test.isPending ? 'functions.test.running' : 'functions.test.run')}
        </button>
        <button type="button" className="button" onClick={() => setEdited(null)}>
          {format('functions.test.reset')}
        </button>
        {fn.latestVersion === null ? <span className="muted">{format('functions.test.saveFirst')}</span> : null}
      </div>
      <div aria-live="polite" className="function-test-outcome">
        {test.isError ? (
          <p role="alert" className="form-alert">
            {problemText(test.error, format)}
          </p>
        ) : invocation ? (
          <div data-outcome={invocation.status}>
            <h4>{format('functions.test.outcome')}</h4>
            <p className="function-run-figures">
              <RunStatus status={invocation.status} />
              <span>{format('functions.log.durationValue', { value: durationText(invocation.durationMs) })}</span>
              <span>{format('functions.log.memoryValue', { value: memoryText(invocation.memoryBytes) })}</span>
            </p>
            {invocation.status === 'ok' ? (
              <>
                <h5>{format('functions.test.result')}</h5>
                <pre className="function-output" tabIndex={0}>
                  {JSON.stringify(outcome.result, null, 2) ?? 'undefined'}
                </pre>
              </>
            ) : null}
            <RunDetails error={invocation.error} logs={invocation.logs} />
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** A run's error with its stack, and its console lines. */
export function RunDetails({ error, logs }: { error: FunctionTestResult['invocation']['error']; logs: FunctionTestResult['invocation']['logs'] }) {
  const format = useFormat();
  return (
    <>
      {error ? (
        <>
          <h5>{format('functions.log.error')}</h5>
          <pre className="function-output function-output-error" tabIndex={0}>
            {`${error.name}: ${error.message}`}
            {error.stack ? `\n${error.stack}` : ''}
          </pre>
        </>
      ) : null}
      <h5>{format('functions.log.lines')}</h5>
      {logs.length ? (
        <pre className="function-output" tabIndex={0}>
          {logs.map((line) => `[${line.level}] ${line.text}`).join('\n')}
        </pre>
      ) : (
        <p className="muted">{format('functions.log.noLines')}</p>
      )}
    </>
  );
}
