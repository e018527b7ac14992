/**
 * The console's billing status (src/shell/BillingStatus.tsx): the "Billing Account Status" dialog
 * over the organization's pages. GRACE: dismissable, at most once an hour, its button to
 * organization settings with setupCreditCard; NO_CLIENT and BLOCK: persistent; members are told
 * to ask an admin; the dialog closes when the organization is paid up again; the server's windows
 * count, the defaults when they cannot be read; a change that succeeds while unpaid reads the
 * organization again; nothing at all with billing off.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import type { StatusWindows } from '../../definitions/billing/status.ts';
import { storageKeys } from '../../definitions/constants.ts';
import { ownerPermissions } from '../../definitions/permissions.ts';
import type { AuthApi, ConsoleConfig, Me } from '../../src/api/auth.ts';
import type { Organization, PlatformApi } from '../../src/api/platform.ts';
import { PlatformApiProvider, platformKeys } from '../../src/api/platform-queries.ts';
import { AuthApiProvider, queryKeys } from '../../src/api/queries.ts';

const { fetchStatusWindows } = vi.hoisted(() => ({ fetchStatusWindows: vi.fn<() => Promise<StatusWindows>>() }));
vi.mock('../../src/shell/billing-status-reads.ts', async (original) => ({
  ...(await original<typeof import('../../src/shell/billing-status-reads.ts')>()),
  fetchStatusWindows,
}));

const { BillingStatus } = await import('../../src/shell/BillingStatus.tsx');
// The dialog's code loads lazily on first use; loading it here keeps the first test within its time.
await import('../../renderers/dialogs/DialogRenderer.tsx');

const ORG = 'a1b2c3d4e5f6a1b2c3d4e5f6';
const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.parse('2026-03-02T09:00:00Z');
const defaults: StatusWindows = { GRACE: { from: 0, to: 2 }, NO_CLIENT: { from: 3, to: 14 }, BLOCK: { from: 15, to: 30 } };

const me: Me = {
  _id: 'u1',
  username: 'ana',
  email: 'ana@example.com',
  organizations: [ORG],
  verified: true,
  superAdmin: false,
  questionnaireCompleted: true,
  createdDate: '2025-01-01T00:00:00.000Z',
  lastLoggedIn: null,
};

const readOnly = { admin: false, read: true, create: false, update: false, delete: false, write: false };

function organization(failedDaysAgo: number | null, admin = true): Organization {
  return {
    id: ORG,
    name: 'Acme Kitchen',
    createdDate: '2025-03-04T10:05:00.000Z',
    seats: 3,
    initialBillingFailedDate: failedDaysAgo === null ? null : new Date(NOW - failedDaysAgo * DAY - 60_000).toISOString(),
    projects: [],
    users: [{ email: 'ana@example.com', username: 'ana', userName: null, status: 'active', permissions: admin ? ownerPermissions : readOnly }],
  } as Organization;
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

const memberGuards = { guards: ['signedIn', 'organizationMember'] };

function renderAt(path: string, { org, billing = true }: { org: Organization; billing?: boolean }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(queryKeys.me, me);
  const config: ConsoleConfig = { consoleClient: { id: 'console', secret: 's' }, googleClientId: null, devMailbox: false, billing };
  const auth = { me: async () => me, config: async () => config } as unknown as AuthApi;
  const platform = { organization: vi.fn(async () => org) } as unknown as PlatformApi & { organization: ReturnType<typeof vi.fn> };
  const router = createMemoryRouter(
    [
      {
        id: 'root',
        element: (
          <>
            <Outlet />
            <BillingStatus />
            <Where />
          </>
        ),
        children: [
          { id: 'organization', path: '/organization/:organizationID', handle: memberGuards, element: <p>overview</p> },
          { id: 'organizationSettings', path: '/organization/:organizationID/settings', handle: memberGuards, element: <p>settings</p> },
          { id: 'viewProject', path: '/organization/:organizationID/project/:projectID', handle: { guards: ['signedIn', 'organizationMember', 'billingStatus'] }, element: <p>project</p> },
          { id: 'dovs', path: '/dovs', handle: { guards: ['signedIn', 'billingStatus'] }, element: <p>docs</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AuthApiProvider value={auth}>
        <PlatformApiProvider value={platform}>
          <RouterProvider router={router} />
        </PlatformApiProvider>
      </AuthApiProvider>
    </QueryClientProvider>,
  );
  return { ...view, queryClient, platform, router };
}

/** The dialog's code loads on first use; under load that can take a moment. */
const findDialog = () => screen.findByRole('alertdialog', { name: 'Billing Account Status' }, { timeout: 5000 });
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 20)));

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
  localStorage.clear();
  fetchStatusWindows.mockReset();
  fetchStatusWindows.mockResolvedValue(defaults);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// Two cores shared with other work: a dialog test may wait on its first render.
describe('Billing Account Status', { timeout: 15_000 }, () => {
  it('GRACE: a dismissable dialog whose button opens the card setup in organization settings', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt(`/organization/${ORG}/project/p1`, { org: organization(1) });
    const dialog = await findDialog();
    expect(dialog).toHaveTextContent('The last payment for this organization did not go through.');
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    // By keyboard: a pointer may find the dialog still opening (pointer-events off) on a loaded runner.
    screen.getByRole('button', { name: 'Update Payment Information' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent(`/organization/${ORG}/settings?setupCreditCard=true`);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    // Remembered for the organization (the clock runs on in this test).
    const remembered = Number(localStorage.getItem(storageKeys.billingStatusAlert(ORG)));
    expect(remembered).toBeGreaterThanOrEqual(NOW);
    expect(remembered).toBeLessThanOrEqual(Date.now());
  });

  it('GRACE: at most once an hour, across reloads', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const first = renderAt(`/organization/${ORG}`, { org: organization(0) });
    await findDialog();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    first.unmount();

    // A reload half an hour later: not again.
    vi.setSystemTime(NOW + HOUR / 2);
    renderAt(`/organization/${ORG}`, { org: organization(0) });
    await settle();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    // An hour after it was closed, the next tick of the clock brings it back.
    vi.setSystemTime(NOW + HOUR);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(await findDialog()).toBeInTheDocument();
  });

  it('NO_CLIENT: persistent, only its button closes it', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt(`/organization/${ORG}/settings`, { org: organization(5) });
    const dialog = await findDialog();
    expect(dialog).toHaveTextContent("the console is limited to the organization's settings");
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update Payment Information' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(`/organization/${ORG}/settings?setupCreditCard=true`);
  });

  it('BLOCK: says the API is suspended', async () => {
    renderAt(`/organization/${ORG}`, { org: organization(20) });
    expect(await findDialog()).toHaveTextContent("its projects' API is suspended");
  });

  it('a member is told to ask an administrator, and goes to the settings members see', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt(`/organization/${ORG}`, { org: organization(5, false) });
    const dialog = await findDialog();
    expect(dialog).toHaveTextContent('Ask an administrator of the organization to update its payment information.');
    expect(screen.queryByRole('button', { name: 'Update Payment Information' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.getByTestId('where')).toHaveTextContent(new RegExp(`^/organization/${ORG}/settings$`));
  });

  it('closes as soon as the organization is paid up again', async () => {
    const { queryClient } = renderAt(`/organization/${ORG}/settings`, { org: organization(20) });
    await findDialog();
    act(() => queryClient.setQueryData(platformKeys.organization(ORG), organization(null)));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('reads the organization again after a change succeeds while unpaid, and closes once paid', async () => {
    const { queryClient, platform } = renderAt(`/organization/${ORG}/settings`, { org: organization(20) });
    await findDialog();
    const reads = platform.organization.mock.calls.length;
    platform.organization.mockResolvedValue(organization(null));
    // A card saved, a plan bought: any mutation that succeeds.
    await act(() => queryClient.getMutationCache().build(queryClient, { mutationFn: async () => 'saved' }).execute(undefined));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(platform.organization.mock.calls.length).toBeGreaterThan(reads);
  });

  it("counts with the server's windows once they arrive, and the defaults when they cannot be read", async () => {
    fetchStatusWindows.mockResolvedValue({ GRACE: { from: 0, to: 5 }, NO_CLIENT: { from: 6, to: 14 }, BLOCK: { from: 15, to: 30 } });
    const first = renderAt(`/organization/${ORG}`, { org: organization(4) });
    await findDialog();
    // GRACE by the server's windows: dismissable.
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    first.unmount();

    localStorage.clear();
    fetchStatusWindows.mockRejectedValue(new TypeError('Failed to fetch'));
    renderAt(`/organization/${ORG}`, { org: organization(4) });
    await findDialog();
    await settle();
    // NO_CLIENT by the defaults: persistent.
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });

  it('shows nothing with billing off, nor away from an organization', async () => {
    const off = renderAt(`/organization/${ORG}`, { org: organization(20), billing: false });
    await settle();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(fetchStatusWindows).not.toHaveBeenCalled();
    expect(off.platform.organization).not.toHaveBeenCalled();
    off.unmount();

    const away = renderAt('/dovs', { org: organization(20) });
    await settle();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(away.platform.organization).not.toHaveBeenCalled();
  });
});
