/**
 * The shell's answers to the HTTP client's events: 403 on a page load goes home, on a write it is
 * "Insufficient permissions"; 429 opens "API Limit Reached" at most once per 30 s; the end of the
 * session goes to login with returnUrl.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { ApiEvent } from '../../src/api/client.ts';

const listeners = new Set<(event: ApiEvent) => void>();
const { notify } = vi.hoisted(() => ({ notify: vi.fn() }));

vi.mock('../../src/api/client.ts', () => ({
  getApiClient: () => ({
    subscribe: (listener: (event: ApiEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    session: { getLastOrganization: () => 'org-7' },
  }),
}));
vi.mock('../../renderers/toasts/notify.ts', () => ({ notify }));

const { ApiEvents } = await import('../../src/shell/ApiEvents.tsx');

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function renderAt(path: string, pattern = '*') {
  const element = (
    <>
      <ApiEvents />
      <Where />
    </>
  );
  const router = createMemoryRouter([{ path: pattern, element }, ...(pattern === '*' ? [] : [{ path: '*', element }])], { initialEntries: [path] });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const publish = (event: ApiEvent) => act(() => listeners.forEach((listener) => listener(event)));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
  notify.mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ApiEvents', () => {
  it('sends a page load answered 403 home', () => {
    renderAt('/dovs');
    publish({ type: 'forbidden', method: 'GET', url: '/api/organization/x' });
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect(notify).not.toHaveBeenCalled();
  });

  it('answers a write refused with 403 with "Insufficient permissions"', () => {
    renderAt('/dovs');
    publish({ type: 'forbidden', method: 'PUT', url: '/api/organization/x' });
    expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Insufficient permissions', description: 'Cannot complete requested actions' });
    expect(screen.getByTestId('where')).toHaveTextContent('/dovs');
  });

  it('sends the user to login with returnUrl when the session ends', () => {
    renderAt('/organization/o1?view=plans');
    publish({ type: 'sessionEnded' });
    expect(screen.getByTestId('where')).toHaveTextContent('/login?returnUrl=%2Forganization%2Fo1%3Fview%3Dplans');
  });

  it('opens "API Limit Reached" at most once per 30 seconds, and not while snoozed', async () => {
    const user = userEvent.setup();
    renderAt('/dovs');
    const limited: ApiEvent = { type: 'rateLimited', method: 'GET', url: '/api/x', status: 429, warning: null };
    publish(limited);
    // The dialog's code loads on first use; under load that can take a moment.
    const dialog = await screen.findByRole('alertdialog', { name: 'API Limit Reached' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Remind me in 5 minutes' }));
    expect(dialog).not.toBeInTheDocument();

    vi.setSystemTime(Date.now() + 31_000);
    publish(limited);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    vi.setSystemTime(Date.now() + 5 * 60_000);
    publish(limited);
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'See Plans' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/organization/org-7/settings?view=plans');

    // Within 30 seconds of the last dialog: none.
    publish(limited);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('opens the dialog for a warning header too, and names the plans of the organization in the URL', async () => {
    const user = userEvent.setup();
    renderAt('/organization/o9/project/p1', '/organization/:organizationID/project/:projectID');
    publish({ type: 'rateLimited', method: 'GET', url: '/api/x', status: 200, warning: '199 - "limit"' });
    await screen.findByRole('alertdialog', {}, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'See Plans' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/organization/o9/settings?view=plans');
  });
});
