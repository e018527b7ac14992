/**
 * The audit log (docs/admin.md "Audit log"): every admin action, newest first, a page at a time,
 * filtered by action; each entry says who, what, when, its target and what changed (the keys whose
 * values differ, before → after). Page and action live in the URL.
 */
import '../../../definitions/messages/areas/admin.ts';
import { useId } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { auditActions, auditTargetKinds, type AuditAction, type AuditTargetKind } from '../../../definitions/admin.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { AuditQuery } from '../../api/admin.ts';
import { useAudit } from '../../api/admin-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { EmailText } from './users/EmailText.tsx';
import { auditDiff } from './audit/audit-diff.ts';
import { auditActionLabels, auditTargetLabels } from './audit/audit-labels.ts';

const AUDIT_PER_PAGE = 50;
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });

export default function AdminAuditScreen() {
  const format = useFormat();
  const id = useId();
  const problemMessage = useProblemMessage();
  const [params, setParams] = useSearchParams();
  const actionParam = params.get('action');
  const action = auditActions.includes(actionParam as AuditAction) ? (actionParam as AuditAction) : undefined;
  const pageNumber = Math.min(100_000, Math.max(1, Math.trunc(Number(params.get('page'))) || 1));
  const query: AuditQuery = { page: pageNumber, perPage: AUDIT_PER_PAGE, ...(action ? { action } : {}) };
  const audit = useAudit(query);

  const go = (changes: { action?: string; page?: number }) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if ('action' in changes) {
        if (changes.action) next.set('action', changes.action);
        else next.delete('action');
        next.delete('page');
      }
      if (changes.page !== undefined) {
        if (changes.page > 1) next.set('page', String(changes.page));
        else next.delete('page');
      }
      return next;
    });

  const page = audit.data;
  const total = page?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PER_PAGE));
  const from = !page || page.entries.length === 0 ? 0 : (pageNumber - 1) * AUDIT_PER_PAGE + 1;
  const to = page && page.entries.length ? from + page.entries.length - 1 : 0;
  const targetLabel = (kind: string) => (auditTargetKinds.includes(kind as AuditTargetKind) ? format(auditTargetLabels[kind as AuditTargetKind]) : kind);

  return (
    <div className="admin-screen">
      <div className="admin-toolbar">
        <h2 id={`${id}-title`}>{format('route.auditLog.title')}</h2>
      </div>
      <p className="muted">{format('admin.audit.intro')}</p>
      <div className="admin-filters">
        <div className="admin-filter">
          <label className="field-label" htmlFor={`${id}-action`}>
            {format('admin.audit.filterAction')}
          </label>
          <select id={`${id}-action`} className="input" value={action ?? ''} onChange={(event) => go({ action: event.target.value })}>
            <option value="">{format('admin.audit.allActions')}</option>
            {auditActions.map((value) => (
              <option key={value} value={value}>
                {format(auditActionLabels[value])}
              </option>
            ))}
          </select>
        </div>
      </div>

      {audit.isError ? (
        <p role="alert" className="callout-error">
          {format('admin.audit.loadFailed', { reason: problemMessage(audit.error) })}
        </p>
      ) : page === undefined ? (
        <p className="muted" role="status">
          {format('app.loading')}
        </p>
      ) : page.entries.length === 0 ? (
        <p className="empty-state" role="status">
          {format(action ? 'admin.audit.emptyFiltered' : 'admin.audit.empty')}
        </p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table admin-table" aria-labelledby={`${id}-title`} aria-busy={audit.isFetching || undefined}>
              <thead>
                <tr>
                  <th scope="col">{format('admin.audit.when')}</th>
                  <th scope="col">{format('admin.audit.who')}</th>
                  <th scope="col">{format('admin.audit.what')}</th>
                  <th scope="col">{format('admin.audit.target')}</th>
                  <th scope="col">{format('admin.audit.change')}</th>
                </tr>
              </thead>
              <tbody>
                {page.entries.map((entry) => {
                  const lines = auditDiff(entry.before, entry.after);
                  const known = auditActions.includes(entry.action as AuditAction);
                  return (
                    <tr key={entry.id} data-action={entry.action}>
                      <td className="admin-date">
                        <time dateTime={entry.at}>{dateFormat.format(new Date(entry.at))}</time>
                      </td>
                      <td>
                        <EmailText email={entry.actor} />
                      </td>
                      <th scope="row">{known ? format(auditActionLabels[entry.action as AuditAction]) : entry.action}</th>
                      <td>
                        {targetLabel(entry.targetKind)}
                        {entry.targetID ? <span className="admin-mono admin-target-id">{entry.targetID}</span> : null}
                      </td>
                      <td>
                        {lines.length === 0 ? (
                          <span className="muted">{format('admin.audit.noChange')}</span>
                        ) : (
                          <ul className="admin-diff">
                            {lines.map((line) => (
                              <li key={line.key}>
                                {line.key ? <span className="admin-diff-key">{line.key}:</span> : null}
                                <span className="admin-diff-before">{line.before ?? format('admin.audit.unset')}</span>
                                <span aria-hidden="true"> → </span>
                                <span className="visually-hidden"> {format('admin.audit.changedTo')} </span>
                                <span className="admin-diff-after">{line.after ?? format('admin.audit.unset')}</span>
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <nav className="admin-pager" aria-label={format('admin.audit.pages')}>
            <button type="button" className="icon-button" aria-label={format('itemList.previous')} disabled={pageNumber <= 1} onClick={() => go({ page: pageNumber - 1 })}>
              <ChevronLeft aria-hidden="true" size={18} />
            </button>
            <span className="muted" aria-live="polite">
              {format('itemList.range', { from, to, total })}
            </span>
            <button type="button" className="icon-button" aria-label={format('itemList.next')} disabled={pageNumber >= pages} onClick={() => go({ page: pageNumber + 1 })}>
              <ChevronRight aria-hidden="true" size={18} />
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
