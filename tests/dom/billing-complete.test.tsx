/** /billingComplete: confirms the card session and goes on to the organization's settings. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import BillingCompleteScreen from '../../src/screens/BillingCompleteScreen.tsx';
import { ApiError } from '../../src/api/errors.ts';
import { fakePlatformApi, ORG, renderPlatform } from './support/platform.tsx';
import { fakeBillingApi } from './support/fake-billing-api.ts';
import type { BillingApi } from '../../src/api/billing.ts';

const routes = [
  { id: 'creditCardBillingComplete', path: '/billingComplete', element: <BillingCompleteScreen /> },
  { id: 'organizationSettings', path: '/organization/:organizationID/settings', element: <p>settings page</p> },
  { id: 'home', path: '/', element: <p>home page</p> },
];

const problem = (status: number, code: string) => new ApiError({ status, code, detail: code, problem: { type: 'about:blank', title: '', status, detail: code, code } });

function show(billing: BillingApi, path: string) {
  return renderPlatform({ routes, path, api: fakePlatformApi(), billing });
}

afterEach(cleanup);

describe('/billingComplete', () => {
  it('confirms the session once and goes to the settings with billingComplete=true', async () => {
    const billing = fakeBillingApi();
    const { router } = show(billing, '/billingComplete?sessionID=s1');
    expect(await screen.findByText('settings page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/organization/${ORG}/settings`);
    expect(router.state.location.search).toBe('?billingComplete=true');
    expect(billing.completeCard).toHaveBeenCalledTimes(1);
    expect(billing.completeCard).toHaveBeenCalledWith('s1');
  });

  it('takes a session the provider completed first (its callback came before the browser) as done', async () => {
    const billing = fakeBillingApi({
      completeCard: vi.fn(async () => {
        throw problem(409, 'card_session_completed');
      }),
      cardSession: vi.fn(async () => ({ sessionID: 's1', organizationID: ORG, planID: null, status: 'completed' as const })),
    });
    const { router } = show(billing, '/billingComplete?sessionID=s1');
    expect(await screen.findByText('settings page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?billingComplete=true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    ['card_session_expired', 409, 'This card page has expired. Open the card setup again.'],
    ['card_session_other_organization', 403, 'This card page belongs to another organization.'],
  ])('says %s in the catalogue words, with a way back to the organization', async (code, status, text) => {
    const billing = fakeBillingApi({
      completeCard: vi.fn(async () => {
        throw problem(status, code);
      }),
    });
    show(billing, '/billingComplete?sessionID=s1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not confirm the card');
    expect(alert).toHaveTextContent(text);
    expect(await screen.findByRole('link', { name: 'Back to the organization settings' })).toHaveAttribute('href', `/organization/${ORG}/settings`);
  });

  it('leads home when the session cannot be read either', async () => {
    show(
      fakeBillingApi({
        completeCard: vi.fn(async () => {
          throw problem(404, 'card_session_not_found');
        }),
        cardSession: vi.fn(async () => {
          throw problem(404, 'card_session_not_found');
        }),
      }),
      '/billingComplete?sessionID=nope',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('There is no such card page.');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Go to the start page' })).toHaveAttribute('href', '/'));
  });

  it('says where the page comes from without a session', async () => {
    const billing = fakeBillingApi();
    show(billing, '/billingComplete');
    expect(await screen.findByRole('alert')).toHaveTextContent("This page is reached from the card provider's page.");
    expect(billing.completeCard).not.toHaveBeenCalled();
  });
});
