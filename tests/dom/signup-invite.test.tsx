/** Sign-up through an invitation: signed in at once and on to accept it, or the usual mail check. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import SignupScreen from '../../src/screens/SignupScreen.tsx';
import type { AuthApi } from '../../src/api/auth.ts';
import { ApiError } from '../../src/api/errors.ts';
import { AuthApiProvider } from '../../src/api/queries.ts';
import type { Invite, PlatformApi } from '../../src/api/platform.ts';
import { PlatformApiProvider } from '../../src/api/platform-queries.ts';
import { me } from './support/platform.tsx';

vi.mock('../../definitions/forms/signup.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('signup'));

const INVITE = 'Zx9-invite-secret-0123456789';

const unreadable = async (): Promise<Invite> => {
  throw new ApiError({ status: 404, code: 'invite_not_found', detail: 'Invitation can not be found' });
};

function open(auth: Partial<AuthApi>, path = `/signup?inviteID=${INVITE}`, readInvite: (id: string) => Promise<Invite> = unreadable) {
  const api = { config: async () => ({ consoleClient: { id: 'c', secret: 's' }, googleClientId: null, devMailbox: true }), ...auth } as AuthApi;
  const router = createMemoryRouter(
    [
      { path: '/signup', element: <SignupScreen /> },
      { path: '/join/:id', element: <p>join page</p> },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AuthApiProvider value={api}>
        <PlatformApiProvider value={{ readInvite } as unknown as PlatformApi}>
          <RouterProvider router={router} />
        </PlatformApiProvider>
      </AuthApiProvider>
    </QueryClientProvider>,
  );
  return router;
}

async function fill() {
  await userEvent.type(await screen.findByLabelText('Username'), 'bob');
  await userEvent.type(screen.getByLabelText('E-mail address'), 'bob@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'a long password');
  await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
}

afterEach(cleanup);

describe('sign-up with an invitation', () => {
  it('signs in and goes on to accept the invitation when the account is verified by it', async () => {
    const signUp = vi.fn(async () => ({ status: 'accepted' as const }));
    const passwordGrant = vi.fn(async () => ({ accessToken: 'a', refreshToken: 'r' }));
    const router = open({ signUp, passwordGrant, me: async () => ({ ...me, verified: true, organizations: [] }) });
    await fill();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/join/${INVITE}`));
    expect(signUp).toHaveBeenCalledWith({ username: 'bob', email: 'bob@example.com', password: 'a long password' }, INVITE);
    expect(passwordGrant).toHaveBeenCalledWith('bob', 'a long password');
  });

  it('signs out again and asks to confirm the e-mail when the invitation was for another address', async () => {
    const logout = vi.fn(async () => undefined);
    open({
      signUp: async () => ({ status: 'accepted' }),
      passwordGrant: async () => ({ accessToken: 'a', refreshToken: 'r' }),
      me: async () => ({ ...me, verified: false }),
      logout,
    });
    await fill();
    expect(await screen.findByRole('status')).toHaveTextContent('User has been created. Please follow link in the email we just sent you to verify your account.');
    expect(logout).toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', `/login?inviteID=${INVITE}`);
  });

  it('shows the usual message when signing in fails (an address that already had an account)', async () => {
    open({
      signUp: async () => ({ status: 'accepted' }),
      passwordGrant: async () => {
        throw new ApiError({ status: 400, code: 'invalid_grant', detail: 'Bad credentials' });
      },
    });
    await fill();
    expect(await screen.findByRole('status')).toHaveTextContent('User has been created.');
  });
});

describe('the invited address', () => {
  it('is filled in from the invitation, and may be changed', async () => {
    const readInvite = vi.fn(async () => ({ email: 'invited@example.com', verified: false, organizationID: 'o', organizationName: 'Acme' }));
    const signUp = vi.fn(async () => ({ status: 'accepted' as const }));
    open({ signUp, passwordGrant: async () => ({ accessToken: 'a', refreshToken: 'r' }), me: async () => ({ ...me, verified: true, organizations: [] }) }, undefined, readInvite);
    const email = await screen.findByLabelText('E-mail address');
    await waitFor(() => expect(email).toHaveValue('invited@example.com'));
    expect(email).not.toHaveAttribute('readonly');
    expect(readInvite).toHaveBeenCalledWith(INVITE);
    await userEvent.type(screen.getByLabelText('Username'), 'bob');
    await userEvent.type(screen.getByLabelText('Password'), 'a long password');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(signUp).toHaveBeenCalledWith({ username: 'bob', email: 'invited@example.com', password: 'a long password' }, INVITE));
  });

  it('is left empty when the invitation cannot be read, and without an invitation nothing is read', async () => {
    open({});
    const email = await screen.findByLabelText('E-mail address');
    expect(email).toHaveValue('');
    cleanup();
    const readInvite = vi.fn(unreadable);
    open({}, '/signup', readInvite);
    expect(await screen.findByLabelText('E-mail address')).toHaveValue('');
    expect(readInvite).not.toHaveBeenCalled();
  });
});
