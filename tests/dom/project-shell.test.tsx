/** The project shell: side menu, active section, section choices, empty states, prompts. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, type RouteObject } from 'react-router';
import ProjectShellScreen from '../../src/screens/project/ProjectShellScreen.tsx';
import ProjectHomeScreen from '../../src/screens/project/ProjectHomeScreen.tsx';
import type { ApiToken } from '../../src/api/platform.ts';
import { fakePlatformApi, member, ORG, organization, PROJECT, project, renderPlatform } from './support/platform.tsx';
import { me } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

const page = (text: string) => <p>{text}</p>;
const shellRoutes: RouteObject[] = [
  {
    id: 'viewProject',
    path: '/organization/:organizationID/project/:projectID',
    element: <ProjectShellScreen />,
    children: [
      { id: 'noCollectionSelected', index: true, element: <ProjectHomeScreen /> },
      { id: 'viewProjectSettings', path: 'settings', element: page('settings page') },
      { id: 'newAPIKey', path: 'newAPIKey', element: page('new token page') },
      { id: 'viewWebhooks', path: 'webhooks', element: page('webhooks page') },
      { id: 'viewWebhook', path: 'webhooks/:webhookID', element: page('webhook page') },
      {
        id: 'auth',
        path: 'auth',
        element: <Outlet />,
        children: [
          { id: 'viewUsers', path: 'users', element: page('users page') },
          { id: 'viewRoles', path: 'viewRoles', element: page('groups page') },
        ],
      },
      {
        id: 'collection',
        path: 'collection',
        element: <Outlet />,
        children: [
          { id: 'createCollection', path: 'new', element: page('new collection page') },
          { id: 'viewCollection', path: ':collectionID', element: page('collection page') },
          { id: 'editCollection', path: ':collectionID/edit', element: page('collection settings page') },
        ],
      },
    ],
  },
  { id: 'organization', path: '/organization/:organizationID', element: page('organization page') },
  { id: 'dovs', path: '/dovs', element: page('docs page') },
];

const base = `/organization/${ORG}/project/${PROJECT}`;
const withContent = project({
  collections: [
    { id: 'posts', name: 'Posts', singleItem: false, rtlDirection: false },
    { id: 'authors', name: 'Authors', singleItem: false, rtlDirection: false },
  ],
  webhooks: [{ id: 'w1', name: 'Deploy' }],
});
const token = { id: 't1', name: 'Website' } as ApiToken;

function open(path: string, overrides: Parameters<typeof fakePlatformApi>[0] = {}, user = me) {
  return renderPlatform({ routes: shellRoutes, path: `${base}${path}`, api: fakePlatformApi(overrides), user });
}

const sideMenu = () => screen.getAllByRole('navigation', { name: 'Project menu' })[0]!;

afterEach(cleanup);

describe('project shell', () => {
  it('names the project and links back to its organization', async () => {
    open('');
    expect(await screen.findByRole('heading', { level: 1, name: 'Recipes' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Back to Acme Kitchen' })).toHaveAttribute('href', `/organization/${ORG}`);
  });

  it.each([
    ['', 'Data'],
    ['/collection/posts', 'Data'],
    ['/webhooks', 'Webhooks'],
    ['/webhooks/w1', 'Webhooks'],
    ['/auth/users', 'Auth'],
    ['/auth/viewRoles', 'Auth'],
    ['/settings', 'Project Settings'],
  ])('marks the active section for %s: %s', async (path, section) => {
    open(path, { project: vi.fn(async () => withContent) });
    await screen.findByRole('heading', { level: 1, name: 'Recipes' });
    const current = within(sideMenu()).getAllByRole('button').filter((button) => button.getAttribute('aria-current') === 'true');
    expect(current.map((button) => button.textContent)).toEqual([expect.stringContaining(section)]);
  });

  it('lists collections with a settings link each, and webhooks', async () => {
    open('', { project: vi.fn(async () => withContent) });
    const menu = await waitFor(sideMenu);
    expect(await within(menu).findByRole('link', { name: 'Posts' })).toHaveAttribute('href', `${base}/collection/posts`);
    expect(within(menu).getByRole('link', { name: 'Settings of Posts' })).toHaveAttribute('href', `${base}/collection/posts/edit`);
    expect(within(menu).getByRole('link', { name: 'Deploy' })).toHaveAttribute('href', `${base}/webhooks/w1`);
    expect(within(menu).getByRole('link', { name: 'Users' })).toHaveAttribute('href', `${base}/auth/users`);
    expect(within(menu).getByRole('link', { name: 'Groups' })).toHaveAttribute('href', `${base}/auth/viewRoles`);
    expect(within(menu).getByText('Beta')).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Help' })).toHaveAttribute('href', '/dovs');
  });

  it('says so when there are no collections and no webhooks, with a way to create each', async () => {
    open('');
    const menu = await waitFor(sideMenu);
    expect(await within(menu).findByText("You don't seem to have any collections yet")).toBeInTheDocument();
    expect(within(menu).getByText('Click the Plus icon to create your first')).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Create Collection' })).toHaveAttribute('href', `${base}/collection/new`);
    expect(within(menu).getByRole('link', { name: 'Create a collection' })).toHaveAttribute('href', `${base}/collection/new`);
    expect(within(menu).getByText("You don't seem to have any webhooks yet")).toBeInTheDocument();
    // It opens the Create Webhook dialog (tests/dom/webhooks-screens.test.tsx), so it is a button.
    expect(within(menu).getByRole('button', { name: 'Create Webhook' })).toHaveAttribute('aria-haspopup', 'dialog');
    // The empty project's page welcomes with the first steps.
    expect(screen.getByRole('heading', { name: 'Welcome to Recipes' })).toBeInTheDocument();
  });

  it('choosing Collections opens the first collection, unless one is open or being created', async () => {
    const { router } = open('/webhooks', { project: vi.fn(async () => withContent) });
    await within(await waitFor(sideMenu)).findByRole('link', { name: 'Posts' });
    await userEvent.click(within(sideMenu()).getByRole('button', { name: 'Data' }));
    expect(router.state.location.pathname).toBe(`${base}/collection/posts`);
    await act(() => router.navigate(`${base}/collection/authors`));
    await userEvent.click(within(sideMenu()).getByRole('button', { name: 'Data' }));
    expect(router.state.location.pathname).toBe(`${base}/collection/authors`);
    await act(() => router.navigate(`${base}/collection/new`));
    await userEvent.click(within(sideMenu()).getByRole('button', { name: 'Data' }));
    expect(router.state.location.pathname).toBe(`${base}/collection/new`);
  });

  it('choosing Webhooks opens the first webhook; Auth opens users unless the groups are shown', async () => {
    const { router } = open('', { project: vi.fn(async () => withContent) });
    await within(await waitFor(sideMenu)).findByRole('link', { name: 'Deploy' });
    await userEvent.click(within(sideMenu()).getByRole('button', { name: 'Webhooks' }));
    expect(router.state.location.pathname).toBe(`${base}/webhooks/w1`);
    await userEvent.click(within(sideMenu()).getByRole('button', { name: /Auth/ }));
    expect(router.state.location.pathname).toBe(`${base}/auth/users`);
    await act(() => router.navigate(`${base}/auth/viewRoles`));
    await userEvent.click(within(sideMenu()).getByRole('button', { name: /Auth/ }));
    expect(router.state.location.pathname).toBe(`${base}/auth/viewRoles`);
  });

  it('has a bottom navigation (Home, Collections, Auth, Webhooks) for narrow screens', async () => {
    const { router } = open('/webhooks', { project: vi.fn(async () => withContent) });
    const bottom = await screen.findByRole('navigation', { name: 'Project navigation' });
    expect(within(bottom).getAllByRole('button').map((button) => button.textContent)).toEqual(['Home', 'Collections', 'Auth', 'Webhooks']);
    expect(within(bottom).getByRole('button', { name: 'Webhooks' })).toHaveAttribute('aria-current', 'true');
    await within(await waitFor(sideMenu)).findByRole('link', { name: 'Posts' });
    await userEvent.click(within(bottom).getByRole('button', { name: 'Collections' }));
    expect(router.state.location.pathname).toBe(`${base}/collection/posts`);
    await userEvent.click(within(bottom).getByRole('button', { name: 'Home' }));
    expect(router.state.location.pathname).toBe(`/organization/${ORG}`);
  });

  it('opens the side menu in a drawer from the menu button, closing it on navigation', async () => {
    const { router } = open('', { project: vi.fn(async () => withContent) });
    await userEvent.click(await screen.findByRole('button', { name: 'Open the project menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Recipes' });
    await userEvent.click(within(drawer).getByRole('link', { name: 'Authors' }));
    expect(router.state.location.pathname).toBe(`${base}/collection/authors`);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers Project Settings, Docs and the theme in the floating menu', async () => {
    const { router } = open('');
    await userEvent.click(await screen.findByRole('button', { name: 'Quick actions' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Project Settings', 'Docs', expect.stringMatching(/^Switch to (dark|light) theme$/)]);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Docs' }));
    expect(router.state.location.pathname).toBe('/dovs');
  });

  it('prompts for the first API token while there is none, except in Project Settings', async () => {
    open('');
    const prompt = await screen.findByRole('complementary', { name: 'Create an API token' });
    expect(within(prompt).getByRole('link', { name: 'Create an API token' })).toHaveAttribute('href', `${base}/newAPIKey`);
    cleanup();
    open('/settings');
    await screen.findByText('settings page');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('complementary', { name: 'Create an API token' })).not.toBeInTheDocument();
    cleanup();
    open('', { apiTokens: vi.fn(async () => [token]) });
    await screen.findByRole('heading', { name: 'Welcome to Recipes' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('complementary', { name: 'Create an API token' })).not.toBeInTheDocument();
  });

  it('does not prompt a member who may not create tokens', async () => {
    const reader = { ...me, email: 'bob@example.com' };
    open('', { organization: vi.fn(async () => organization({ users: [member('bob', { read: true })] })) }, reader);
    await screen.findByRole('heading', { name: 'Welcome to Recipes' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('complementary', { name: 'Create an API token' })).not.toBeInTheDocument();
  });
});
