/** Project Settings → Restricted view: admins choose members and the collections they see. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import ProjectSettingsScreen from '../../src/screens/project/ProjectSettingsScreen.tsx';
import { ApiError } from '../../src/api/errors.ts';
import type { ProjectChange, RestrictedViewSettings } from '../../src/api/platform.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { ownerPermissions } from '../../definitions/permissions.ts';
import { fakePlatformApi, me, member, ORG, organization, PROJECT, project, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../definitions/forms/project-general.ts?validator', async () => (await import('./support/validators.ts')).validatorOf('project-general'));

const routes: RouteObject[] = [{ id: 'viewProjectSettings', path: '/organization/:organizationID/project/:projectID/settings', element: <ProjectSettingsScreen /> }];
const people = organization({ users: [member('ana', ownerPermissions), member('bob', { read: true, write: true }), member('cleo', { read: true }, 'invited')] });
const choices = (restrictedView: RestrictedViewSettings['restrictedView']): RestrictedViewSettings => ({
  restrictedView,
  collections: [
    { id: 'posts', name: 'Posts' },
    { id: 'authors', name: 'Authors' },
    { id: 'secrets', name: 'Secrets' },
  ],
});

function open(overrides: Parameters<typeof fakePlatformApi>[0] = {}, user = me) {
  const api = fakePlatformApi({ organization: vi.fn(async () => people), ...overrides });
  renderPlatform({ routes, path: `/organization/${ORG}/project/${PROJECT}/settings`, api, user });
  return api;
}

const section = async () => screen.findByRole('region', { name: 'Restricted view' });

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Restricted view', () => {
  it('an admin picks members and collections and saves them', async () => {
    const updateProject = vi.fn(async (_org: string, _id: string, _body: ProjectChange) => project());
    const restrictedView = vi.fn(async () => choices(null));
    open({ updateProject, restrictedView });
    const panel = await section();
    expect(await within(panel).findByText('Off: every member sees every collection.')).toBeInTheDocument();
    const save = within(panel).getByRole('button', { name: 'Save restricted view' });
    // No member chosen: nothing to save.
    expect(save).toBeDisabled();
    expect(within(panel).getByText('Choose at least one member, or turn the restricted view off.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();

    const members = within(panel).getByRole('group', { name: 'Members who see only the chosen collections' });
    expect(within(members).getAllByRole('checkbox').map((box) => box.parentElement!.textContent)).toEqual([
      'ana (ana@example.com)',
      'bob (bob@example.com)',
      'cleo@example.com (invited)',
    ]);
    await userEvent.click(within(members).getByRole('checkbox', { name: 'bob (bob@example.com)' }));
    await userEvent.click(within(members).getByRole('checkbox', { name: 'cleo@example.com (invited)' }));
    const collections = within(panel).getByRole('group', { name: 'Collections they see' });
    await userEvent.click(within(collections).getByRole('checkbox', { name: 'Secrets' }));
    await userEvent.click(within(collections).getByRole('checkbox', { name: 'Posts' }));
    expect(save).toBeEnabled();
    await userEvent.click(save);
    await waitFor(() =>
      expect(updateProject).toHaveBeenCalledWith(ORG, PROJECT, {
        settings: { restrictedView: { members: ['bob@example.com', 'cleo@example.com'], collections: ['posts', 'secrets'] } },
      }),
    );
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Restricted view saved' }));
    // The settings are read again after saving.
    await waitFor(() => expect(restrictedView.mock.calls.length).toBeGreaterThan(1));
  });

  it('shows the current setting and turns it off', async () => {
    const updateProject = vi.fn(async () => project());
    open({ updateProject, restrictedView: vi.fn(async () => choices({ members: ['bob@example.com'], collections: ['authors'] })) });
    const panel = await section();
    expect(await within(panel).findByText('On: 1 member sees 1 collection.')).toBeInTheDocument();
    expect(within(panel).getByRole('checkbox', { name: 'bob (bob@example.com)' })).toBeChecked();
    expect(within(panel).getByRole('checkbox', { name: 'ana (ana@example.com)' })).not.toBeChecked();
    expect(within(panel).getByRole('checkbox', { name: 'Authors' })).toBeChecked();
    expect(within(panel).getByRole('checkbox', { name: 'Posts' })).not.toBeChecked();
    await userEvent.click(within(panel).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(updateProject).toHaveBeenCalledWith(ORG, PROJECT, { settings: { restrictedView: null } }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Restricted view turned off' }));
  });

  it('says why saving failed', async () => {
    const updateProject = vi.fn(async () => {
      throw new ApiError({ status: 400, code: 'validation_failed', detail: 'body/settings/restrictedView/members/0 is not a member of this organization' });
    });
    open({ updateProject, restrictedView: vi.fn(async () => choices({ members: ['bob@example.com'], collections: [] })) });
    const panel = await section();
    await userEvent.click(await within(panel).findByRole('button', { name: 'Save restricted view' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        kind: 'error',
        title: 'Restricted view could not be saved',
        description: 'body/settings/restrictedView/members/0 is not a member of this organization',
      }),
    );
  });

  it('is not shown to a member who is not an admin, and its settings are not asked for', async () => {
    const restrictedView = vi.fn(async () => choices(null));
    open({ restrictedView }, { ...me, email: 'bob@example.com', username: 'bob' });
    expect(await screen.findByRole('heading', { name: 'General' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Restricted view' })).not.toBeInTheDocument();
    expect(restrictedView).not.toHaveBeenCalled();
  });
});
