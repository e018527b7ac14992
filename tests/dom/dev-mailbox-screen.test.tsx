/** The Dev mailbox page over a stand-in for the account calls. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { AuthApi, DevMail } from '../../src/api/auth.ts';
import { ApiError } from '../../src/api/errors.ts';
import { AuthApiProvider } from '../../src/api/queries.ts';
import DevMailboxScreen from '../../src/screens/DevMailboxScreen.tsx';

afterEach(cleanup);

function renderWith(devMailbox: AuthApi['devMailbox']) {
  const api = { devMailbox } as AuthApi;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AuthApiProvider value={api}>
        <MemoryRouter>
          <DevMailboxScreen />
        </MemoryRouter>
      </AuthApiProvider>
    </QueryClientProvider>,
  );
}

const mail: DevMail = {
  id: 'm1',
  to: 'ana@example.com',
  from: 'Larder <no-reply@larder.local>',
  subject: 'Confirm your e-mail address for Larder',
  text: 'Hello ana,\n\nOpen http://localhost/confirm/abc',
  link: 'http://localhost/confirm/abc',
  kind: 'confirm',
  createdAt: '2025-03-04T10:05:00.000Z',
};

describe('DevMailboxScreen', () => {
  it('lists the outbox, each mail with its link to click', async () => {
    renderWith(async () => [mail, { ...mail, id: 'm2', subject: 'Reset your Larder password', link: null }]);
    const first = await screen.findByRole('article', { name: 'Confirm your e-mail address for Larder' });
    expect(within(first).getByRole('link', { name: 'http://localhost/confirm/abc' })).toHaveAttribute('href', 'http://localhost/confirm/abc');
    expect(within(first).getByText('To ana@example.com')).toBeInTheDocument();
    expect(within(first).getByText(/Sent March 4, 2025/)).toBeInTheDocument();
    const second = screen.getByRole('article', { name: 'Reset your Larder password' });
    expect(within(second).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('2 mails');
  });

  it('says the outbox is empty', async () => {
    renderWith(async () => []);
    expect(await screen.findByText('The outbox is empty.')).toBeInTheDocument();
  });

  it('explains a 404: the mailbox answers only this computer, only with the outbox transport', async () => {
    renderWith(async () => {
      throw new ApiError({ status: 404, code: 'not_found', detail: 'No route' });
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(/only requests from this computer \(loopback\)/);
    expect(screen.queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();
  });

  it('says so when the outbox cannot be read for another reason', async () => {
    renderWith(async () => {
      throw new ApiError({ status: 500, code: 'internal', detail: 'Boom' });
    });
    // A server error is retried twice (src/api/queries.ts) before the page gives up.
    expect(await screen.findByRole('alert', {}, { timeout: 8000 })).toHaveTextContent('The outbox could not be read.');
  }, 15_000);
});
