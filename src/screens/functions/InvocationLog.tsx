/**
 * A function's invocation log (docs/functions.md "The invocation log"): newest first, 50 a page
 * (older pages while the server says `hasMore`), a search through errors and log lines; each run
 * with its time, trigger, status, version, duration, memory and attempt, and on demand its error
 * with the stack and its log lines. Asked again every few seconds, so event and schedule runs
 * show up by themselves.
 */
import { Fragment, useId, useMemo, useState, type FormEvent } from 'react';
import { ChevronDown, ChevronLeft, ChevronRight } from 'lucide-react';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { FunctionInvocationView, FunctionScope, FunctionView } from '../../api/functions.ts';
import { useFunctionInvocations, useFunctionVersions } from '../../api/functions-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { durationText, memoryText } from './function-helpers.ts';
import { RunStatus, triggerLabels } from './function-ui.tsx';
import { RunDetails } from './TestPanel.tsx';

export function InvocationLog({ scope, fn }: { scope: FunctionScope; fn: FunctionView }) {
  const format = useFormat();
  const id = useId();
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const log = useFunctionInvocations(scope, fn.name, page, search);
  const versions = useFunctionVersions(scope, fn.name);
  const numbers = useMemo(() => new Map((versions.data ?? []).map((version) => [version.id, version.number])), [versions.data]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed.trim());
    setPage(1);
  };
  const toggle = (invocation: FunctionInvocationView) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(invocation.id)) next.delete(invocation.id);
      else next.add(invocation.id);
      return next;
    });
  const label = (key: Parameters<typeof format>[0]) => (
    <span className="function-run-label" aria-hidden="true">
      {format(key)}:{' '}
    </span>
  );

  const data = log.data;
  return (
    <div className="function-log" data-part="log">
      <h3 id={`${id}-title`}>{format('functions.log.title')}</h3>
      <form role="search" className="function-log-search" aria-label={format('functions.log.search')} onSubmit={submit}>
        <label className="visually-hidden" htmlFor={`${id}-search`}>
          {format('functions.log.search')}
        </label>
        <input id={`${id}-search`} className="input" type="search" value={typed} maxLength={200} placeholder={format('functions.log.searchPlaceholder')} onChange={(event) => setTyped(event.target.value)} />
        <button type="submit" className="button">
          {format('functions.log.searchSubmit')}
        </button>
      </form>
      {log.isError ? (
        <p role="alert" className="form-alert">
          {problemText(log.error, format)}
        </p>
      ) : !data ? null : data.invocations.length === 0 ? (
        <p className="muted">{format(search ? 'functions.log.noMatch' : 'functions.log.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact function-log-table" aria-labelledby={`${id}-title`}>
            <thead>
              <tr>
                <th scope="col">{format('functions.log.time')}</th>
                <th scope="col">{format('functions.log.trigger')}</th>
                <th scope="col">{format('functions.log.status')}</th>
                <th scope="col">{format('functions.log.version')}</th>
                <th scope="col">{format('functions.log.duration')}</th>
                <th scope="col">{format('functions.log.memory')}</th>
                <th scope="col">{format('functions.log.attempt')}</th>
              </tr>
            </thead>
            <tbody>
              {data.invocations.map((invocation) => {
                const expanded = open.has(invocation.id);
                const number = invocation.versionID ? numbers.get(invocation.versionID) : undefined;
                return (
                  <Fragment key={invocation.id}>
                    <tr data-invocation={invocation.id} data-trigger={invocation.trigger} data-status={invocation.status}>
                      <td className="function-nowrap">
                        <button
                          type="button"
                          className="button-quiet function-expand"
                          aria-expanded={expanded}
                          aria-controls={`${id}-${invocation.id}`}
                          aria-label={format('functions.log.details', { time: formatDateTime(invocation.createdDate) })}
                          onClick={() => toggle(invocation)}
                        >
                          <ChevronDown aria-hidden="true" size={16} className="function-expand-icon" />
                          <span aria-hidden="true">{formatDateTime(invocation.createdDate)}</span>
                        </button>
                      </td>
                      <td>{format(triggerLabels[invocation.trigger])}</td>
                      <td>
                        <RunStatus status={invocation.status} />
                      </td>
                      <td>
                        {label('functions.log.version')}
                        {number !== undefined ? format('functions.versions.label', { number }) : '—'}
                      </td>
                      <td className="function-nowrap">
                        {label('functions.log.duration')}
                        {durationText(invocation.durationMs)}
                      </td>
                      <td className="function-nowrap">
                        {label('functions.log.memory')}
                        {memoryText(invocation.memoryBytes)}
                      </td>
                      <td>
                        {label('functions.log.attempt')}
                        {invocation.attempt ?? '—'}
                      </td>
                    </tr>
                    {expanded ? (
                      <tr className="function-log-details">
                        <td colSpan={7} id={`${id}-${invocation.id}`}>
                          {invocation.error === null && invocation.resultPreview !== null ? (
                            <>
                              <h5>{format('functions.test.result')}</h5>
                              <pre className="function-output" tabIndex={0}>
                                {invocation.resultPreview}
                              </pre>
                            </>
                          ) : null}
                          <RunDetails error={invocation.error} logs={invocation.logs} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {data && (page > 1 || data.hasMore) ? (
        <nav className="function-pager" aria-label={format('functions.log.pages')}>
          <button type="button" className="button button-small" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))}>
            <ChevronLeft aria-hidden="true" size={16} />
            {format('functions.log.newer')}
          </button>
          <span className="muted" aria-live="polite">
            {format('functions.log.page', { page })}
          </span>
          <button type="button" className="button button-small" disabled={!data.hasMore} onClick={() => setPage((p) => p + 1)}>
            {format('functions.log.older')}
            <ChevronRight aria-hidden="true" size={16} />
          </button>
        </nav>
      ) : null}
    </div>
  );
}
