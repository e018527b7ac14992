/**
 * Mail › Delivery log (docs/mail.md "The delivery log"): the project's mails, newest first —
 * recipient, template, subject, state (queued, sent, failed with the SMTP server's answer), time and
 * attempts — with search, filters and paging in the URL (`search`, `state`, `template`, `page`), a
 * mail's text and HTML in a dialog (`mail`), Resend for those who may, and how long mails are kept.
 * Where the table would not fit (mail.css), each mail's row is drawn on lines of its own — still one
 * row of the same table, so its cells keep their column headers.
 */
import { useEffect, useId, useState } from 'react';
import { ChevronLeft, ChevronRight, Search } from 'lucide-react';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { mailLimits, mailLogStates, mailTemplateKinds, type MailLogState, type MailTemplateKind } from '../../../definitions/mail.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { isApiError } from '../../api/errors.ts';
import type { MailLogEntry, MailLogQuery, MailScope } from '../../api/mail.ts';
import { useMailDetail, useMailLog, useResendMail } from '../../api/mail-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { useSettled } from './mail-problems.ts';
import { kindLabels } from './TemplatesPanel.tsx';

const stateLabels: Record<MailLogState, MessageKey> = { queued: 'mailLog.state.queued', sent: 'mailLog.state.sent', failed: 'mailLog.state.failed' };
const stateBadges: Record<MailLogState, string> = { queued: 'badge badge-invited', sent: 'badge badge-active', failed: 'badge mail-badge-failed' };
const viaLabels: Record<MailLogEntry['via'], MessageKey> = { project: 'mailLog.via.project', installation: 'mailLog.via.installation' };
const PER_PAGE = mailLimits.logPage;
/** The table's time: date and time, each kept whole. */
const shortDate = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const shortTime = new Intl.DateTimeFormat('en', { timeStyle: 'short' });

/** The log's place in the URL; values the server would refuse are left out. */
export interface LogPlace {
  search: string;
  state: MailLogState | undefined;
  template: MailTemplateKind | undefined;
  page: number;
  mail: string | null;
}

export function readLogPlace(params: URLSearchParams): LogPlace {
  const state = params.get('state');
  const template = params.get('template');
  return {
    search: (params.get('search') ?? '').slice(0, mailLimits.searchMax),
    state: mailLogStates.includes(state as MailLogState) ? (state as MailLogState) : undefined,
    template: mailTemplateKinds.includes(template as MailTemplateKind) ? (template as MailTemplateKind) : undefined,
    page: Math.min(100_000, Math.max(1, Math.trunc(Number(params.get('page'))) || 1)),
    mail: params.get('mail') || null,
  };
}

export function DeliveryLogPanel(props: { scope: MailScope; place: LogPlace; go: (changes: Partial<Record<keyof LogPlace, string | number | null>>) => void; canResend: boolean }) {
  const { scope, place, go, canResend } = props;
  const format = useFormat();
  const id = useId();
  const problemMessage = useProblemMessage();
  const query: MailLogQuery = {
    page: place.page,
    perPage: PER_PAGE,
    ...(place.search.trim() ? { search: place.search.trim() } : {}),
    ...(place.state ? { state: place.state } : {}),
    ...(place.template ? { template: place.template } : {}),
  };
  const log = useMailLog(scope, query);
  const resend = useResendMail(scope);

  // The search box types freely; the URL (and the query) follow once typing pauses.
  const [typed, setTyped] = useState(place.search);
  const settled = useSettled(typed, 300);
  useEffect(() => {
    if (settled !== place.search) go({ search: settled || null, page: null });
    // Only a settled change of the box moves the URL; a URL change (back, a link) refills the box below.
  }, [settled]);
  useEffect(() => setTyped(place.search), [place.search]);

  const onResend = (mail: MailLogEntry) =>
    resend.mutate(mail.id, {
      onSuccess: () => void notify({ kind: 'success', title: format('mailLog.resent') }),
      onError: (error) => {
        if (isApiError(error) && error.status === 403) return; // the shell says "Insufficient permissions"
        void notify({ kind: 'error', title: format('mailLog.resendFailed', { reason: problemMessage(error) }) });
      },
    });

  const page = log.data;
  const total = page?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const from = !page || page.mails.length === 0 ? 0 : (place.page - 1) * PER_PAGE + 1;
  const to = page && page.mails.length ? from + page.mails.length - 1 : 0;
  const filtered = Boolean(place.search || place.state || place.template);

  return (
    <div className="mail-log">
      {page ? <p className="muted">{format('mailLog.retention', { days: page.retentionDays })}</p> : null}
      <div className="mail-filters" role="search">
        <div className="mail-search">
          <label className="field-label" htmlFor={`${id}-search`}>
            {format('mailLog.search')}
          </label>
          <div className="mail-search-box">
            <Search aria-hidden="true" size={16} className="mail-search-icon" />
            <input id={`${id}-search`} className="input" type="search" maxLength={mailLimits.searchMax} value={typed} onChange={(event) => setTyped(event.target.value)} />
          </div>
        </div>
        <div className="mail-filter">
          <label className="field-label" htmlFor={`${id}-state`}>
            {format('mailLog.state')}
          </label>
          <select id={`${id}-state`} className="input" value={place.state ?? ''} onChange={(event) => go({ state: event.target.value || null, page: null })}>
            <option value="">{format('mailLog.allStates')}</option>
            {mailLogStates.map((state) => (
              <option key={state} value={state}>
                {format(stateLabels[state])}
              </option>
            ))}
          </select>
        </div>
        <div className="mail-filter">
          <label className="field-label" htmlFor={`${id}-template`}>
            {format('mailLog.template')}
          </label>
          <select id={`${id}-template`} className="input" value={place.template ?? ''} onChange={(event) => go({ template: event.target.value || null, page: null })}>
            <option value="">{format('mailLog.allTemplates')}</option>
            {mailTemplateKinds.map((kind) => (
              <option key={kind} value={kind}>
                {format(kindLabels[kind])}
              </option>
            ))}
          </select>
        </div>
      </div>

      {log.isError ? (
        <p role="alert" className="callout-error">
          {format('mailLog.loadFailed', { reason: problemMessage(log.error) })}
        </p>
      ) : page === undefined ? (
        <p className="muted" role="status">
          {format('app.loading')}
        </p>
      ) : page.mails.length === 0 ? (
        <p className="empty-state" role="status">
          {format(filtered ? 'mailLog.emptyFiltered' : 'mailLog.empty')}
        </p>
      ) : (
        <>
          <div className="table-scroll mail-log-list">
            <table className="table mail-log-table" aria-labelledby={`${id}-caption`} aria-busy={log.isFetching || undefined}>
              <caption id={`${id}-caption`} className="visually-hidden">
                {format('mailLog.title')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{format('mailLog.to')}</th>
                  <th scope="col">{format('mailLog.template')}</th>
                  <th scope="col">{format('mailLog.subject')}</th>
                  <th scope="col">{format('mailLog.state')}</th>
                  <th scope="col">{format('mailLog.time')}</th>
                  <th scope="col" className="mail-number">
                    {format('mailLog.attempts')}
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">{format('mailLog.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.mails.map((mail) => (
                  <tr key={mail.id} data-mail={mail.id} data-state={mail.state}>
                    <th scope="row" className="mail-log-to">
                      {mail.to}
                    </th>
                    <td className="mail-log-template">{mail.template ? format(kindLabels[mail.template]) : format('mailLog.noTemplate')}</td>
                    <td className="mail-log-subject">{mail.subject}</td>
                    <td className="mail-log-state">
                      <span className={stateBadges[mail.state]}>{format(stateLabels[mail.state])}</span>
                      {mail.error ? <span className="mail-log-error">{mail.error}</span> : null}
                    </td>
                    <td className="mail-date">
                      <time dateTime={mail.sentDate ?? mail.createdDate}>
                        <span>{shortDate.format(new Date(mail.sentDate ?? mail.createdDate))}</span> <span>{shortTime.format(new Date(mail.sentDate ?? mail.createdDate))}</span>
                      </time>
                    </td>
                    <td className="mail-number mail-log-attempts">
                      <span className="mail-log-wide">{mail.attempts}</span>
                      <span className="mail-log-narrow">{format('mailLog.attemptsCount', { count: mail.attempts })}</span>
                    </td>
                    <td className="mail-log-actions-cell">
                      <div className="mail-log-actions">
                        <button type="button" className="button button-small" aria-label={format('mailLog.viewMail', { to: mail.to })} onClick={() => go({ mail: mail.id })}>
                          {format('mailLog.view')}
                        </button>
                        {canResend ? (
                          <button type="button" className="button button-small" aria-label={format('mailLog.resendMail', { to: mail.to })} disabled={resend.isPending} onClick={() => onResend(mail)}>
                            {format('mailLog.resend')}
                          </button>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="mail-pager" aria-label={format('mailLog.pages')}>
            <button type="button" className="icon-button" aria-label={format('itemList.previous')} disabled={place.page <= 1} onClick={() => go({ page: place.page - 1 > 1 ? place.page - 1 : null })}>
              <ChevronLeft aria-hidden="true" size={18} />
            </button>
            <span className="muted" aria-live="polite">
              {format('itemList.range', { from, to, total })}
            </span>
            <button type="button" className="icon-button" aria-label={format('itemList.next')} disabled={place.page >= pages} onClick={() => go({ page: place.page + 1 })}>
              <ChevronRight aria-hidden="true" size={18} />
            </button>
          </nav>
        </>
      )}

      <MailDialog scope={scope} mailID={place.mail} onClose={() => go({ mail: null })} canResend={canResend} onResend={onResend} resending={resend.isPending} />
    </div>
  );
}

function MailDialog({
  scope,
  mailID,
  onClose,
  canResend,
  onResend,
  resending,
}: {
  scope: MailScope;
  mailID: string | null;
  onClose: () => void;
  canResend: boolean;
  onResend: (mail: MailLogEntry) => void;
  resending: boolean;
}) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const detail = useMailDetail(scope, mailID);
  const mail = detail.data;
  return (
    <ModalDialog
      open={mailID !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={mail ? format('mailLog.detailTitle', { to: mail.to }) : format('mailLog.title')}
      widthPx={760}
      name="mail-detail"
    >
      {detail.isError ? (
        <p role="alert" className="callout-error">
          {problemMessage(detail.error)}
        </p>
      ) : !mail ? (
        <p className="muted" role="status">
          {format('app.loading')}
        </p>
      ) : (
        <div className="mail-detail">
          <dl className="mail-detail-facts">
            <dt>{format('mailLog.from')}</dt>
            <dd>{mail.from}</dd>
            <dt>{format('mailLog.to')}</dt>
            <dd>{mail.to}</dd>
            {mail.replyTo ? (
              <>
                <dt>{format('mailLog.replyTo')}</dt>
                <dd>{mail.replyTo}</dd>
              </>
            ) : null}
            <dt>{format('mailLog.subject')}</dt>
            <dd>{mail.subject}</dd>
            <dt>{format('mailLog.state')}</dt>
            <dd>
              <span className={stateBadges[mail.state]}>{format(stateLabels[mail.state])}</span> {format('mailLog.attempts')}: {mail.attempts}
            </dd>
            {mail.error ? (
              <>
                <dt>{format('mailLog.error')}</dt>
                <dd className="mail-log-error">{mail.error}</dd>
              </>
            ) : null}
            <dt>{format('mailLog.created')}</dt>
            <dd>{formatDateTime(mail.createdDate)}</dd>
            {mail.sentDate ? (
              <>
                <dt>{format('mailLog.sent')}</dt>
                <dd>{formatDateTime(mail.sentDate)}</dd>
              </>
            ) : null}
            <dt>{format('mailLog.via')}</dt>
            <dd>{format(viaLabels[mail.via as MailLogEntry['via']] ?? viaLabels.installation)}</dd>
          </dl>
          <h3>{format('mailLog.textPart')}</h3>
          <pre className="mail-plain">{mail.text}</pre>
          <h3>{format('mailLog.htmlPart')}</h3>
          {mail.html ? (
            // sandbox with no permissions: the stored HTML runs no script, submits nothing, opens nothing.
            <iframe className="mail-frame" title={format('mailLog.htmlFrame')} sandbox="" srcDoc={mail.html} />
          ) : (
            <p className="muted">{format('mailLog.noHtml')}</p>
          )}
          {canResend ? (
            <div className="form-actions">
              <button type="button" className="button" disabled={resending} onClick={() => onResend(mail)}>
                {format('mailLog.resend')}
              </button>
            </div>
          ) : null}
        </div>
      )}
    </ModalDialog>
  );
}
