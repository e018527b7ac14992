/**
 * Billing › History: the organization's invoices (date, plan, total, invoice number), each with a
 * Download button that saves the invoice PDF as `<invoice number>.pdf`. A failed read says
 * "Could not retrieve previous transactions".
 */
import { useState } from 'react';
import { Download } from 'lucide-react';
import { currencyOfNumber, formatMoney } from '../../../definitions/billing/money.ts';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Transaction } from '../../api/billing.ts';
import { useDownloadInvoice, useTransactions } from '../../api/billing-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';

/** Hands a Blob to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the URL is released after the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name made only of the invoice number's safe characters. */
export const invoiceFileName = (invoiceID: string) => `${invoiceID.replace(/[^A-Za-z0-9._-]/g, '_') || 'invoice'}.pdf`;

export function BillingHistory({ organizationID }: { organizationID: string }) {
  const format = useFormat();
  const transactions = useTransactions(organizationID);
  const download = useDownloadInvoice(organizationID);
  const [pending, setPending] = useState<string | null>(null);

  if (transactions.isError) {
    return (
      <p role="alert" className="callout-error">
        {format('billing.transactionsFailed')}
      </p>
    );
  }
  if (!transactions.data) {
    return (
      <p className="muted" role="status">
        {format('billing.history.loading')}
      </p>
    );
  }
  if (transactions.data.length === 0) return <p className="empty-state">{format('billing.history.empty')}</p>;

  const save = (transaction: Transaction) => {
    setPending(transaction.invoiceID);
    download.mutate(transaction.invoiceID, {
      onSuccess: (blob) => saveBlob(blob, invoiceFileName(transaction.invoiceID)),
      onError: (error) => void notify({ kind: 'error', title: format('billing.history.downloadFailed'), description: problemText(error, format) }),
      onSettled: () => setPending(null),
    });
  };

  return (
    <div className="table-scroll">
      <table className="table billing-history">
        <caption className="visually-hidden">{format('billing.history.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{format('billing.history.date')}</th>
            <th scope="col">{format('billing.history.plan')}</th>
            <th scope="col" className="cell-amount">
              {format('billing.history.total')}
            </th>
            <th scope="col">{format('billing.history.invoice')}</th>
            <th scope="col">
              <span className="visually-hidden">{format('billing.history.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {transactions.data.map((transaction) => {
            const currency = currencyOfNumber(transaction.currency) ?? 'USD';
            const busy = pending === transaction.invoiceID;
            return (
              <tr key={transaction.id}>
                <td>{formatDateTime(transaction.date)}</td>
                <td>{transaction.planName}</td>
                <td className="cell-amount">{formatMoney(transaction.totalAmount, currency)}</td>
                <th scope="row">{transaction.invoiceID}</th>
                <td className="cell-download">
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={format('billing.history.downloadLabel', { invoice: transaction.invoiceID })}
                    aria-disabled={busy || undefined}
                    onClick={() => (busy ? undefined : save(transaction))}
                  >
                    <Download aria-hidden="true" size={16} />
                    <span>{format('billing.history.download')}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
