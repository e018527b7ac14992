/**
 * The Dev mailbox: mail the outbox kept instead of sending it (GET /api/dev/mailbox). The server
 * answers only loopback clients and 404 to everyone else, which this page explains.
 */
import { useEffect, useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { formatDateTime } from '../../definitions/format-date-time.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { isApiError } from '../api/errors.ts';
import { useDevMailbox } from '../api/queries.ts';

/** New mail (a sign-up's confirmation, say) shows up without a click. */
const POLL_MS = 3000;

export default function DevMailboxScreen() {
  const format = useFormat();
  const [polling, setPolling] = useState(true);
  const mailbox = useDevMailbox({ refetchInterval: polling ? POLL_MS : false });
  const unavailable = isApiError(mailbox.error) && mailbox.error.status === 404;
  // A 404 will not change by asking again.
  useEffect(() => setPolling(!unavailable), [unavailable]);
  const mails = mailbox.data ?? [];

  return (
    <section className="page" aria-labelledby="mailbox-title">
      <div className="page-header">
        <h1 id="mailbox-title">{format('devMailbox.heading')}</h1>
        {!unavailable && (
          <button type="button" className="button" onClick={() => mailbox.refetch()} aria-busy={mailbox.isFetching || undefined}>
            <RefreshCw aria-hidden="true" size={16} />
            {format('devMailbox.refresh')}
          </button>
        )}
      </div>
      <p className="page-intro">{format('devMailbox.intro')}</p>
      {unavailable ? (
        <p role="alert" className="callout callout-warning">
          {format('devMailbox.unavailable')}
        </p>
      ) : mailbox.error ? (
        <p role="alert" className="callout callout-error">
          {format('devMailbox.loadFailed')}
        </p>
      ) : mailbox.isPending ? (
        <p role="status">{format('app.loading')}</p>
      ) : (
        <>
          <p role="status" className="mail-count">
            {mails.length === 0 ? format('devMailbox.empty') : format('devMailbox.count', { count: mails.length })}
          </p>
          <ol className="mail-list">
            {mails.map((mail) => (
              <li key={mail.id} className="mail">
                <article aria-labelledby={`mail-${mail.id}`}>
                  <h2 id={`mail-${mail.id}`} className="mail-subject">
                    {mail.subject}
                  </h2>
                  <p className="mail-meta">
                    <span>{format('devMailbox.to', { to: mail.to })}</span>
                    <span>{format('devMailbox.sentAt', { date: formatDateTime(mail.createdAt) })}</span>
                  </p>
                  {mail.link ? (
                    <p className="mail-link">
                      <span className="mail-link-label">{format('devMailbox.link')}</span>{' '}
                      <a href={mail.link}>{mail.link}</a>
                    </p>
                  ) : null}
                  <details className="mail-text">
                    <summary>{format('devMailbox.showText')}</summary>
                    <pre>{mail.text}</pre>
                  </details>
                </article>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
